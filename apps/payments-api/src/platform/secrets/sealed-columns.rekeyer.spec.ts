import { SecretsKeyring, sealedKeyId } from '@payhook/config';
import { randomBytes } from 'node:crypto';
import { SealedColumnsRekeyer, type Resealed, type SealedColumn } from './sealed-columns.rekeyer';

const contextOf = (id: string) => `test:${id}`;

/** A column in memory: rows by id, each replaced only where it still holds what was read. */
class MemoryColumn implements SealedColumn {
  constructor(readonly rows: Map<string, string | null>) {}
  async page(after: string, size: number) {
    return [...this.rows.keys()]
      .sort()
      .filter((id) => id > after)
      .slice(0, size)
      .map((id) => ({ id, sealed: this.rows.get(id) ?? null, context: contextOf(id) }));
  }
  async replace(resealed: Resealed[]) {
    const written = resealed.filter((row) => this.rows.get(row.id) === row.was);
    for (const row of written) this.rows.set(row.id, row.sealed);
    return written.map((row) => row.id);
  }
}

class TestRekeyer extends SealedColumnsRekeyer {
  protected readonly values = 'test values';
  protected readonly owners = 'tests';
  readonly reports: string[] = [];

  constructor(
    protected readonly keyring: SecretsKeyring,
    private readonly column: SealedColumn,
  ) {
    super();
    this.logger.log = (message: string) => void this.reports.push(message);
    this.logger.error = (message: string) => void this.reports.push(`error: ${message}`);
  }

  protected columns() {
    return [this.column];
  }
  protected async alsoNeedingPreviousKey() {
    return null;
  }
}

describe('SealedColumnsRekeyer', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const before = new SecretsKeyring(oldKey);
  const during = new SecretsKeyring(newKey, oldKey);

  it('moves every value under the previous key, past a batch, and skips rows with none', async () => {
    const rows = new Map<string, string | null>();
    for (let i = 0; i < 1_203; i++) {
      const id = `row_${String(i).padStart(5, '0')}`;
      rows.set(id, i % 3 === 0 ? null : before.seal(`secret ${i}`, contextOf(id)));
    }
    const rekeyer = new TestRekeyer(during, new MemoryColumn(rows));
    await rekeyer.runOnce();
    const sealed = [...rows.values()].filter((value): value is string => value !== null);
    expect(sealed).toHaveLength(802);
    for (const value of sealed) expect(sealedKeyId(value)).toBe(during.currentKeyId);
    expect(during.open(rows.get('row_00001')!, contextOf('row_00001'))).toBe('secret 1');
    expect(rekeyer.reports).toEqual([
      expect.stringMatching(/^re-encrypted 802 test values; 0 test values still under .*; the next pass confirms/),
    ]);
    // A pass that moves nothing says the previous key can go; a third says nothing new.
    await rekeyer.runOnce();
    expect(rekeyer.reports.at(-1)).toMatch(/^re-encrypted 0 test values; .*tests no longer need/);
    await rekeyer.runOnce();
    expect(rekeyer.reports).toHaveLength(2);
  });

  it('names values that do not open (copied from another row) by id only, and leaves them', async () => {
    const copied = before.seal('secret', contextOf('row_a'));
    const rows = new Map<string, string | null>([
      ['row_a', copied],
      ['row_b', copied],
    ]);
    const rekeyer = new TestRekeyer(during, new MemoryColumn(rows));
    await rekeyer.runOnce();
    expect(rows.get('row_b')).toBe(copied);
    expect(sealedKeyId(rows.get('row_a')!)).toBe(during.currentKeyId);
    expect(rekeyer.reports).toEqual([
      expect.stringMatching(/^error: 1 test values name SECRETS_KEY_PREVIOUS .*: row_b$/),
      expect.stringMatching(
        /^re-encrypted 1 test values; 1 test values still under .*; the unreadable test values above are lost/,
      ),
    ]);
    expect(rekeyer.reports.join('\n')).not.toContain('secret');
  });

  it('leaves a value changed between its read and its write as it now is', async () => {
    const rows = new Map<string, string | null>([['row_a', before.seal('old', contextOf('row_a'))]]);
    const column = new MemoryColumn(rows);
    const changed = during.seal('new', contextOf('row_a'));
    const racing: SealedColumn = {
      page: (after, size) => column.page(after, size),
      replace: async (resealed) => {
        rows.set('row_a', changed);
        return column.replace(resealed);
      },
    };
    await new TestRekeyer(during, racing).runOnce();
    expect(rows.get('row_a')).toBe(changed);
  });

  it('does nothing without a previous key', async () => {
    const rows = new Map<string, string | null>([['row_a', before.seal('old', contextOf('row_a'))]]);
    const kept = rows.get('row_a');
    await new TestRekeyer(before, new MemoryColumn(rows)).runOnce();
    expect(rows.get('row_a')).toBe(kept);
  });
});
