export interface EndpointSchedulerOptions {
  /** Deliveries running at once against one endpoint. */
  maxInFlightPerEndpoint?: number;
  /** How long a delivery may wait for a slot before it is handed back to `defer`. */
  maxWaitMs?: number;
  now?: () => number;
}

interface QueuedJob<J> {
  job: J;
  run: (job: J) => Promise<void>;
  defer: (job: J) => void;
  enqueuedAt: number;
}

interface EndpointState<J> {
  running: number;
  queue: QueuedJob<J>[];
}

/**
 * Caps concurrent deliveries per endpoint so one slow merchant cannot take every slot. Jobs over the cap wait
 * FIFO; those that wait longer than `maxWaitMs` go to `defer` (e.g. back to the broker) so they do not hold the
 * consumer's prefetch window while other endpoints starve. Pure: the owner calls `sweep()` on an interval.
 */
export class EndpointScheduler<J> {
  private readonly maxInFlightPerEndpoint: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly endpoints = new Map<string, EndpointState<J>>();
  private running = 0;
  private waiting = 0;
  private idleWaiters: (() => void)[] = [];

  constructor({ maxInFlightPerEndpoint = 10, maxWaitMs = 250, now = Date.now }: EndpointSchedulerOptions = {}) {
    if (!Number.isInteger(maxInFlightPerEndpoint) || maxInFlightPerEndpoint < 1) {
      throw new RangeError(`maxInFlightPerEndpoint must be a whole number from 1, got ${maxInFlightPerEndpoint}`);
    }
    this.maxInFlightPerEndpoint = maxInFlightPerEndpoint;
    this.maxWaitMs = maxWaitMs;
    this.now = now;
  }

  submit(endpointKey: string, job: J, run: (job: J) => Promise<void>, defer: (job: J) => void): void {
    this.sweep();
    const state = this.stateOf(endpointKey);
    const entry: QueuedJob<J> = { job, run, defer, enqueuedAt: this.now() };
    // Never overtake jobs already waiting for this endpoint.
    if (state.queue.length === 0 && state.running < this.maxInFlightPerEndpoint) {
      this.start(endpointKey, state, entry);
    } else {
      state.queue.push(entry);
      this.waiting++;
    }
  }

  /** Hands every job that has waited longer than `maxWaitMs` to its `defer`. */
  sweep(): void {
    const now = this.now();
    for (const [endpointKey, state] of this.endpoints) {
      // FIFO, so the overdue jobs are at the front.
      while (state.queue.length > 0 && now - state.queue[0].enqueuedAt > this.maxWaitMs) {
        this.deferNext(endpointKey, state);
      }
    }
  }

  /** For shutdown: gives every waiting job back to its `defer`; running jobs are left to finish. */
  deferAllQueued(): void {
    for (const [endpointKey, state] of this.endpoints) {
      while (state.queue.length > 0) this.deferNext(endpointKey, state);
    }
  }

  /** Resolves once nothing is running (queued jobs start as slots free up, so they finish first too). */
  drain(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  inFlight(endpointKey: string): number {
    return this.endpoints.get(endpointKey)?.running ?? 0;
  }

  queued(endpointKey: string): number {
    return this.endpoints.get(endpointKey)?.queue.length ?? 0;
  }

  totalInFlight(): number {
    return this.running;
  }

  totalQueued(): number {
    return this.waiting;
  }

  private stateOf(endpointKey: string): EndpointState<J> {
    let state = this.endpoints.get(endpointKey);
    if (!state) {
      state = { running: 0, queue: [] };
      this.endpoints.set(endpointKey, state);
    }
    return state;
  }

  private start(endpointKey: string, state: EndpointState<J>, { job, run }: QueuedJob<J>): void {
    state.running++;
    this.running++;
    // An async wrapper turns a synchronous throw into a rejection; both are swallowed because the owner's `run`
    // records its own outcome, and the chain must go on either way.
    const settled = (async () => run(job))();
    settled.then(
      () => this.onSettled(endpointKey, state),
      () => this.onSettled(endpointKey, state),
    );
  }

  private onSettled(endpointKey: string, state: EndpointState<J>): void {
    state.running--;
    this.running--;
    const next = state.queue.shift();
    if (next) {
      this.waiting--;
      this.start(endpointKey, state, next);
    } else {
      this.forgetIfIdle(endpointKey, state);
    }
    if (this.running === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private deferNext(endpointKey: string, state: EndpointState<J>): void {
    const entry = state.queue.shift();
    if (!entry) return;
    this.waiting--;
    this.forgetIfIdle(endpointKey, state);
    entry.defer(entry.job);
  }

  // Keeps the map bounded by the endpoints that are busy right now.
  private forgetIfIdle(endpointKey: string, state: EndpointState<J>): void {
    if (state.running === 0 && state.queue.length === 0 && this.endpoints.get(endpointKey) === state) {
      this.endpoints.delete(endpointKey);
    }
  }
}
