/** Attempts one instance runs at once against one endpoint. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 10;

/** One request running against an endpoint; releasing it more than once is harmless. */
export interface Slot {
  release(): void;
}

/**
 * Requests one dispatcher instance sends at once to each endpoint. Taking a slot never waits: work
 * that finds none is parked in its endpoint's lane (Postgres), so it holds no prefetch window and
 * no place in the shared queue while the endpoint is busy. A slot covers the HTTP request only:
 * it is released as soon as the endpoint has answered, before the attempt is recorded, so the
 * endpoint is kept as busy as the limit allows. Pure; no timers.
 */
export class EndpointSlots {
  private readonly inUse = new Map<string, number>();

  constructor(
    readonly perEndpoint: number,
    /** Told the endpoint's slots in use each time one is taken (the dispatcher's metrics). */
    private readonly onTake: (inUse: number) => void = () => undefined,
  ) {
    if (!Number.isInteger(perEndpoint) || perEndpoint < 1) {
      throw new RangeError(`perEndpoint must be a whole number from 1, got ${perEndpoint}`);
    }
  }

  /** A slot of `endpointKey` when one is free; null otherwise. */
  tryTake(endpointKey: string): Slot | null {
    return this.free(endpointKey) > 0 ? this.take(endpointKey) : null;
  }

  /** A slot whatever the limit: for a person's redelivery, which is one attempt. */
  takeAnyway(endpointKey: string): Slot {
    return this.take(endpointKey);
  }

  free(endpointKey: string): number {
    return Math.max(0, this.perEndpoint - (this.inUse.get(endpointKey) ?? 0));
  }

  private take(endpointKey: string): Slot {
    const inUse = (this.inUse.get(endpointKey) ?? 0) + 1;
    this.inUse.set(endpointKey, inUse);
    this.onTake(inUse);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const used = this.inUse.get(endpointKey)!;
        // The map holds only endpoints with requests running, so it stays as small as the work.
        if (used === 1) this.inUse.delete(endpointKey);
        else this.inUse.set(endpointKey, used - 1);
      },
    };
  }
}
