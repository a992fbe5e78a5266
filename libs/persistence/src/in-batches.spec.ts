import { inBatches } from './periodic-task';

describe('inBatches', () => {
  it('goes on while batches come back full, and stops at the first short one', async () => {
    const backlog = [3, 3, 1, 3];
    const sizes: number[] = [];
    const total = await inBatches(3, async (size) => {
      sizes.push(size);
      return backlog.shift() ?? 0;
    });
    expect(total).toBe(7);
    expect(sizes).toEqual([3, 3, 3]);
    expect(backlog).toEqual([3]);
  });

  it('runs one batch when there is nothing to do', async () => {
    let calls = 0;
    await expect(inBatches(1_000, async () => (calls++, 0))).resolves.toBe(0);
    expect(calls).toBe(1);
  });
});
