import { MicroBatcher } from './micro-batcher';

/** A batch function whose batches the test finishes by hand. */
function controlledBatches<In>() {
  const batches: { items: In[]; finish: () => void; fail: (error: Error) => void }[] = [];
  const run = (items: In[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({
        items,
        finish: () => resolve(items.map((item) => `done ${String(item)}`)),
        fail: reject,
      });
    });
  return { batches, run };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('MicroBatcher', () => {
  it('runs the first call at once, alone, and everything that came meanwhile as the next batch', async () => {
    const { batches, run } = controlledBatches<number>();
    const batcher = new MicroBatcher(run, { maxBatch: 10 });
    const first = batcher.submit(1);
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1]]);

    expect(batcher.queued).toBe(0);

    const later = [2, 3, 4].map((n) => batcher.submit(n));
    await settle();
    expect(batches).toHaveLength(1); // they wait for the running batch
    expect(batcher.queued).toBe(3);

    batches[0].finish();
    await expect(first).resolves.toBe('done 1');
    await settle();
    expect(batches[1].items).toEqual([2, 3, 4]);
    expect(batcher.queued).toBe(0);
    batches[1].finish();
    await expect(Promise.all(later)).resolves.toEqual(['done 2', 'done 3', 'done 4']);
  });

  it('never puts more than maxBatch items in one batch', async () => {
    const { batches, run } = controlledBatches<number>();
    const batcher = new MicroBatcher(run, { maxBatch: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => batcher.submit(n));
    for (let i = 0; i < 3; i++) {
      await settle();
      batches[i].finish();
    }
    await Promise.all(all);
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('keeps a second item with the same key for the next batch, and the others in order', async () => {
    const { batches, run } = controlledBatches<string>();
    const batcher = new MicroBatcher(run, { maxBatch: 10, keysOf: (item) => [item.split(':')[0]] });
    const all = ['busy:0', 'a:1', 'b:1', 'a:2', 'c:1', 'a:3'].map((item) => batcher.submit(item));
    await settle();
    batches[0].finish();
    await settle();
    expect(batches[1].items).toEqual(['a:1', 'b:1', 'c:1']);
    batches[1].finish();
    await settle();
    expect(batches[2].items).toEqual(['a:2']);
    batches[2].finish();
    await settle();
    expect(batches[3].items).toEqual(['a:3']);
    batches[3].finish();
    await expect(Promise.all(all)).resolves.toHaveLength(6);
  });

  it('keeps an item behind every earlier one it shares any key with', async () => {
    const { batches, run } = controlledBatches<string>();
    // Keys: the letters of the item. 'bc' shares b with 'ab'; 'cd' shares c with 'bc', left behind.
    const batcher = new MicroBatcher(run, { maxBatch: 10, keysOf: (item) => [...item] });
    const all = ['zz', 'ab', 'bc', 'cd', 'ef'].map((item) => batcher.submit(item));
    await settle();
    batches[0].finish();
    await settle();
    expect(batches[1].items).toEqual(['ab', 'ef']);
    batches[1].finish();
    await settle();
    expect(batches[2].items).toEqual(['bc']);
    batches[2].finish();
    await settle();
    expect(batches[3].items).toEqual(['cd']);
    batches[3].finish();
    await expect(Promise.all(all)).resolves.toHaveLength(5);
  });

  it('runs up to inFlight batches at once, and gathers the rest behind them', async () => {
    const { batches, run } = controlledBatches<number>();
    const batcher = new MicroBatcher(run, { maxBatch: 10, inFlight: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => batcher.submit(n));
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
    batches[1].finish();
    await settle();
    expect(batches[2].items).toEqual([3, 4, 5]);
    batches[0].finish();
    batches[2].finish();
    await expect(Promise.all(all)).resolves.toEqual([1, 2, 3, 4, 5].map((n) => `done ${n}`));
  });

  it('with gatherTurn, sends the calls of one turn together even while a slot is free', async () => {
    const { batches, run } = controlledBatches<number>();
    const batcher = new MicroBatcher(run, { maxBatch: 10, inFlight: 2, gatherTurn: true });
    const first = [1, 2, 3].map((n) => batcher.submit(n));
    expect(batches).toHaveLength(0);
    await settle();
    expect(batches.map((b) => b.items)).toEqual([[1, 2, 3]]);
    batches[0].finish();
    await expect(Promise.all(first)).resolves.toEqual(['done 1', 'done 2', 'done 3']);
  });

  it('rejects every call of a failed batch, and goes on with the next', async () => {
    const { batches, run } = controlledBatches<number>();
    const batcher = new MicroBatcher(run, { maxBatch: 10 });
    const first = batcher.submit(1);
    const second = batcher.submit(2);
    await settle();
    batches[0].fail(new Error('database down'));
    await expect(first).rejects.toThrow('database down');
    await settle();
    batches[1].finish();
    await expect(second).resolves.toBe('done 2');
  });

  it('rejects the batch when the batch function returns the wrong number of results', async () => {
    const batcher = new MicroBatcher(async () => ['only one'], { maxBatch: 10 });
    const first = batcher.submit(1);
    const [second, third] = [batcher.submit(2), batcher.submit(3)];
    await expect(first).resolves.toBe('only one');
    await expect(second).rejects.toThrow('a batch of 2 returned 1 results');
    await expect(third).rejects.toThrow('a batch of 2 returned 1 results');
  });
});
