/**
 * Attempts one dispatcher instance runs at once against each endpoint. Taking a slot never waits:
 * work that finds none is parked in its endpoint's lane (Postgres), so it holds no prefetch window
 * and no place in the shared queue while the endpoint is busy. Pure; no timers.
 */
export class EndpointSlots {
  private readonly inUse = new Map<string, number>();
  private total = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(readonly perEndpoint: number) {
    if (!Number.isInteger(perEndpoint) || perEndpoint < 1) {
      throw new RangeError(`perEndpoint must be a whole number from 1, got ${perEndpoint}`);
    }
  }

  /** Takes a slot of `endpointKey` when one is free; false otherwise. */
  tryTake(endpointKey: string): boolean {
    const used = this.inUse.get(endpointKey) ?? 0;
    if (used >= this.perEndpoint) return false;
    this.inUse.set(endpointKey, used + 1);
    this.total++;
    return true;
  }

  /** Takes a slot whatever the limit: for a person's redelivery, which is one attempt. */
  takeAnyway(endpointKey: string): void {
    this.inUse.set(endpointKey, (this.inUse.get(endpointKey) ?? 0) + 1);
    this.total++;
  }

  release(endpointKey: string): void {
    const used = this.inUse.get(endpointKey) ?? 0;
    if (used === 0) throw new Error(`no slot of ${endpointKey} is taken`);
    // The map holds only endpoints with attempts running, so it stays as small as the work.
    if (used === 1) this.inUse.delete(endpointKey);
    else this.inUse.set(endpointKey, used - 1);
    this.total--;
    if (this.total === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  free(endpointKey: string): number {
    return Math.max(0, this.perEndpoint - (this.inUse.get(endpointKey) ?? 0));
  }

  totalInUse(): number {
    return this.total;
  }

  /** Resolves once no slot is taken. */
  whenIdle(): Promise<void> {
    if (this.total === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
