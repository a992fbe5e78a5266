/**
 * Turns many concurrent calls into few statements. While fewer than `inFlight` batches run, a call
 * runs at once (a batch of one, if it is alone); calls that arrive while all of them run wait and
 * go together as the next one. Idle, it adds no delay; under load, one round trip serves everything
 * that queued during the previous one (the dispatcher spent most of its time writing one statement
 * per delivery to Postgres, the API one statement per create).
 *
 * A batch never holds two items that share a key (two attempts of one event, two creates with one
 * idempotency key): the later one waits for a later batch, behind every earlier item it shares a
 * key with, so a batch statement never has to decide between them and repeats keep their order.
 */
export class MicroBatcher<In, Out> {
  private readonly waiting: { item: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = [];
  private running = 0;
  private turnScheduled = false;
  private readonly inFlight: number;

  constructor(
    private readonly runBatch: (items: In[]) => Promise<Out[]>,
    private readonly options: {
      maxBatch: number;
      inFlight?: number;
      keysOf?: (item: In) => string[];
      /**
       * Start a batch only at the end of the current turn of the event loop, so that calls made in
       * the same turn (requests read from many sockets at once) go together even while a slot is free.
       */
      gatherTurn?: boolean;
    },
  ) {
    this.inFlight = options.inFlight ?? 1;
    for (const [name, value] of [
      ['maxBatch', options.maxBatch],
      ['inFlight', this.inFlight],
    ] as const) {
      if (!Number.isInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a whole number from 1, got ${value}`);
      }
    }
  }

  /** Calls waiting for a batch (not those of the batches running). */
  get queued(): number {
    return this.waiting.length;
  }

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (!this.options.gatherTurn) return this.dispatch();
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => {
      this.turnScheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.running < this.inFlight && this.waiting.length > 0) {
      const batch = this.takeBatch();
      this.running += 1;
      // runBatch is called inside the promise chain, so a synchronous throw also rejects the batch.
      void Promise.resolve()
        .then(() => this.runBatch(batch.map((entry) => entry.item)))
        .then((outs) => {
          if (outs.length !== batch.length) {
            throw new Error(`a batch of ${batch.length} returned ${outs.length} results`);
          }
          batch.forEach((entry, i) => entry.resolve(outs[i]));
        })
        .catch((error: unknown) => batch.forEach((entry) => entry.reject(error)))
        .finally(() => {
          this.running -= 1;
          this.next();
        });
    }
  }

  /** The oldest waiting items, up to maxBatch, none sharing a key with an earlier one; the rest keep their order. */
  private takeBatch(): typeof this.waiting {
    const { maxBatch, keysOf } = this.options;
    if (!keysOf) return this.waiting.splice(0, maxBatch);
    const batch: typeof this.waiting = [];
    const left: typeof this.waiting = [];
    const seen = new Set<string>();
    let next = 0;
    for (; next < this.waiting.length && batch.length < maxBatch; next++) {
      const entry = this.waiting[next];
      const keys = keysOf(entry.item);
      // Keys of items left behind count too: a later item must not pass an earlier one.
      (keys.some((key) => seen.has(key)) ? left : batch).push(entry);
      for (const key of keys) seen.add(key);
    }
    this.waiting.splice(0, next, ...left);
    return batch;
  }
}
