/**
 * Turns many concurrent calls into few statements. The first call runs at once as a batch of one;
 * calls that arrive while a batch runs wait and go together as the next one. Idle, it adds no
 * delay; under load, one round trip serves everything that queued during the previous one (the
 * dispatcher spent most of its time writing one statement per delivery to Postgres).
 *
 * A batch never holds two items with the same key (say, two attempts of one event): the later one
 * waits for the next batch, so a batch statement never has to decide between them.
 */
export class MicroBatcher<In, Out> {
  private readonly waiting: { item: In; resolve: (out: Out) => void; reject: (error: unknown) => void }[] = [];
  private running = false;

  constructor(
    private readonly runBatch: (items: In[]) => Promise<Out[]>,
    private readonly options: { maxBatch: number; keyOf?: (item: In) => string },
  ) {
    if (!Number.isInteger(options.maxBatch) || options.maxBatch < 1) {
      throw new RangeError(`maxBatch must be a whole number from 1, got ${options.maxBatch}`);
    }
  }

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.running || this.waiting.length === 0) return;
    const batch = this.takeBatch();
    this.running = true;
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
        this.running = false;
        this.next();
      });
  }

  /** The oldest waiting items, up to maxBatch, with no key twice; the rest keep their order. */
  private takeBatch(): typeof this.waiting {
    const { maxBatch, keyOf } = this.options;
    if (!keyOf) return this.waiting.splice(0, maxBatch);
    const batch: typeof this.waiting = [];
    const keys = new Set<string>();
    for (let i = 0; i < this.waiting.length && batch.length < maxBatch;) {
      const key = keyOf(this.waiting[i].item);
      if (keys.has(key)) {
        i++;
        continue;
      }
      keys.add(key);
      batch.push(...this.waiting.splice(i, 1));
    }
    return batch;
  }
}
