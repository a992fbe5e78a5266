/** Attempts one instance runs at once against one endpoint. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 10;

/**
 * When work for a busy endpoint may wait in memory for its slot instead of being parked (ADR 0007):
 * only while the endpoint answers fast, only briefly, and only a few at once across all endpoints,
 * so the prefetch window always keeps room for other merchants' work.
 */
export interface SlotWaitPolicy {
  /** Longest a message waits for a slot before it is parked after all. */
  readonly maxWaitMs: number;
  /** An endpoint answers fast while every request in flight to it started less than this ago. */
  readonly fastMs: number;
  /**
   * Messages waiting at once on this instance, all endpoints together: below the prefetch window, so
   * other merchants' messages always find room, and each place is held maxWaitMs at most.
   */
  readonly maxWaiting: number;
}

/**
 * Measured in docs/performance.md: most of a fast endpoint's backlog is served from memory, not parked.
 * 250 ms, not 50: on a busy machine a healthy endpoint's requests, and a burst's wait for a slot, pass
 * 50 ms, and every message parked then waited for a lane turn (2026-11-29).
 */
export const SLOT_WAIT: SlotWaitPolicy = { maxWaitMs: 250, fastMs: 250, maxWaiting: 80 };

/** Never waits: every busy endpoint's work is parked at once. */
export const NO_SLOT_WAIT: SlotWaitPolicy = { maxWaitMs: 0, fastMs: 0, maxWaiting: 0 };

/** One request running against an endpoint; releasing it more than once is harmless. */
export interface Slot {
  release(): void;
}

interface Waiter {
  readonly hand: (slot: Slot | null) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * One endpoint's requests in flight (their start times), the messages waiting for one of them to end,
 * and who is to be told when a slot comes free that no message takes.
 */
interface EndpointState {
  readonly startedAt: Set<{ readonly at: number }>;
  readonly waiters: Waiter[];
  readonly whenFree: (() => void)[];
}

/**
 * Requests one dispatcher instance sends at once to each endpoint. Work that finds no free slot
 * is parked in its endpoint's lane (Postgres), so it holds no prefetch window and no place in the
 * shared queue while the endpoint is busy; only when the endpoint answers fast may it wait a few
 * milliseconds for the next slot first (SlotWaitPolicy), since parking costs a write, a claim and a
 * second read for a slot that would be free in 2 ms. A slot covers the HTTP request only: it is
 * released as soon as the endpoint has answered, before the attempt is recorded, so the endpoint is
 * kept as busy as the limit allows.
 */
export class EndpointSlots {
  private readonly endpoints = new Map<string, EndpointState>();
  private waiting = 0;

  constructor(
    readonly perEndpoint: number,
    /** Told the endpoint's slots in use each time one is taken (the dispatcher's metrics). */
    private readonly onTake: (inUse: number) => void = () => undefined,
    private readonly wait: SlotWaitPolicy = NO_SLOT_WAIT,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!Number.isInteger(perEndpoint) || perEndpoint < 1) {
      throw new RangeError(`perEndpoint must be a whole number from 1, got ${perEndpoint}`);
    }
  }

  /** A slot of `endpointKey` when one is free; null otherwise. */
  tryTake(endpointKey: string): Slot | null {
    return this.free(endpointKey) > 0 ? this.take(endpointKey) : null;
  }

  /**
   * A slot of `endpointKey` now when one is free; otherwise, while the endpoint answers fast and
   * the policy has room, the next one released within `maxWaitMs` (first come, first served);
   * null when there is none by then.
   */
  takeWaiting(endpointKey: string): Promise<Slot | null> {
    const slot = this.tryTake(endpointKey);
    if (slot) return Promise.resolve(slot);
    const state = this.endpoints.get(endpointKey)!;
    if (this.waiting >= this.wait.maxWaiting || !this.answersFast(state)) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting += 1;
      const waiter: Waiter = {
        hand: (handed) => {
          clearTimeout(waiter.timer);
          this.waiting -= 1;
          resolve(handed);
        },
        timer: setTimeout(() => {
          state.waiters.splice(state.waiters.indexOf(waiter), 1);
          waiter.hand(null);
          this.forgetIfIdle(endpointKey, state);
        }, this.wait.maxWaitMs),
      };
      state.waiters.push(waiter);
    });
  }

  /** A slot whatever the limit: for a person's redelivery, which is one attempt. */
  takeAnyway(endpointKey: string): Slot {
    return this.take(endpointKey);
  }

  free(endpointKey: string): number {
    return Math.max(0, this.perEndpoint - (this.endpoints.get(endpointKey)?.startedAt.size ?? 0));
  }

  /** The endpoints with no free slot on this instance now. */
  busy(): string[] {
    return [...this.endpoints].filter(([key]) => this.free(key) === 0).map(([key]) => key);
  }

  /**
   * Calls `then` once, as soon as `endpointKey` has a slot that no waiting message takes: now, when one
   * is free, else when the next one is released to nobody.
   */
  whenFree(endpointKey: string, then: () => void): void {
    const state = this.endpoints.get(endpointKey);
    if (!state || this.free(endpointKey) > 0) return then();
    state.whenFree.push(then);
  }

  private answersFast(state: EndpointState): boolean {
    const oldestAllowed = this.now() - this.wait.fastMs;
    for (const request of state.startedAt) if (request.at < oldestAllowed) return false;
    return true;
  }

  private take(endpointKey: string): Slot {
    let state = this.endpoints.get(endpointKey);
    if (!state) {
      state = { startedAt: new Set(), waiters: [], whenFree: [] };
      this.endpoints.set(endpointKey, state);
    }
    const request = { at: this.now() };
    state.startedAt.add(request);
    this.onTake(state.startedAt.size);
    let released = false;
    const endpoint = state;
    return {
      release: () => {
        if (released) return;
        released = true;
        endpoint.startedAt.delete(request);
        // A redelivery may have gone past the limit: a waiter gets only a slot under it.
        const next = endpoint.startedAt.size < this.perEndpoint ? endpoint.waiters.shift() : undefined;
        if (next) return next.hand(this.take(endpointKey));
        if (endpoint.startedAt.size < this.perEndpoint) {
          for (const then of endpoint.whenFree.splice(0)) then();
        }
        this.forgetIfIdle(endpointKey, endpoint);
      },
    };
  }

  /** The map holds only endpoints with requests running or waiting, so it stays as small as the work. */
  private forgetIfIdle(endpointKey: string, state: EndpointState): void {
    if (state.startedAt.size === 0 && state.waiters.length === 0 && state.whenFree.length === 0) {
      this.endpoints.delete(endpointKey);
    }
  }
}
