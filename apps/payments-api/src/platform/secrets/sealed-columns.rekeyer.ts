import { SealedSecretError, sealedKeyId, type SecretsKeyring } from '@payhook/config';
import { inBatches, PeriodicTask } from '@payhook/persistence';

const BATCH_SIZE = 500;
/** Unreadable rows named in the error line: the count says how many there are. */
const UNREADABLE_IDS_SHOWN = 5;

/** One row's sealed value as read for re-keying (null when the row has none), with what it is bound to. */
export interface SealedCell {
  id: string;
  sealed: string | null;
  context: string;
}

/** A value sealed again under the current key, with the value it replaces: written only where that is still there. */
export interface Resealed {
  id: string;
  was: string;
  sealed: string;
}

/** A sealed column as a rekeyer walks it, by its own SQL (sent in its own file: the money tables' allow-list). */
export interface SealedColumn {
  /** Up to `size` rows after the id `after` (`''`: from the start), in primary-key order. */
  page(after: string, size: number): Promise<SealedCell[]>;
  /** Writes each value where its row still holds `was` (compare-and-set); returns a row per value written. */
  replace(resealed: Resealed[]): Promise<unknown[]>;
}

/** The unnest() parameters of a compare-and-set write: the ids, the values read, the values sealed anew. */
export const resealedColumns = (resealed: readonly Resealed[]): [string[], string[], string[]] => [
  resealed.map((row) => row.id),
  resealed.map((row) => row.was),
  resealed.map((row) => row.sealed),
];

/**
 * During a SECRETS_KEY rotation (SECRETS_KEY_PREVIOUS set), re-seals the values of some sealed
 * columns still under the previous key with the current one, from boot and then every interval, so
 * that once it reports none left the previous key can go. Large tables: each pass walks every column
 * by primary key in short batches instead of scanning for the old key's prefix, and replaces a value
 * only if it is still what was read, so a row changed meanwhile is left as it now is and several
 * instances may run at once. Logs counts and ids, never a value.
 */
export abstract class SealedColumnsRekeyer extends PeriodicTask {
  protected readonly intervalMs = 10 * 60_000;
  private lastReport: string | null = null;

  protected abstract readonly keyring: SecretsKeyring;
  /** What the values are, as the log names them ("refund accounts"). */
  protected abstract readonly values: string;
  /** Whose they are, as the log names them: "refunds no longer need SECRETS_KEY_PREVIOUS". */
  protected abstract readonly owners: string;
  /** The columns a pass walks, in turn. */
  protected abstract columns(): SealedColumn[];
  /** What else still needs the previous key, as the report says it; null when nothing does. */
  protected abstract alsoNeedingPreviousKey(previousKeyId: string): Promise<string | null>;

  /** Without SECRETS_KEY_PREVIOUS nothing is being rotated: no timer at all. */
  override onApplicationBootstrap(): void {
    if (!this.keyring.previousKeyId) return;
    super.onApplicationBootstrap();
    // The first pass at once, in the background: the app is serving meanwhile.
    void this.runOnce();
  }

  protected async tick(): Promise<void> {
    const previous = this.keyring.previousKeyId;
    if (!previous) return;
    let moved = 0;
    const unreadable: string[] = [];
    for (const column of this.columns()) {
      const pass = await this.rekey(column, previous);
      moved += pass.moved;
      unreadable.push(...pass.unreadable);
    }
    if (unreadable.length > 0) {
      const shown = unreadable.slice(0, UNREADABLE_IDS_SHOWN);
      this.logger.error(
        `${unreadable.length} ${this.values} name SECRETS_KEY_PREVIOUS (key ${previous}) but do not open with it ` +
          `(changed, or copied from another row): ${shown.join(', ')}` +
          (unreadable.length > shown.length ? ` and ${unreadable.length - shown.length} more` : ''),
      );
    }
    // Done only after a pass that moved nothing: a row written while a pass ran may carry a value
    // copied (sealed as it was) from a row the pass had not reached yet, behind its cursor.
    const needed =
      (await this.alsoNeedingPreviousKey(previous)) ??
      (unreadable.length > 0
        ? `the unreadable ${this.values} above are lost without SECRETS_KEY_PREVIOUS`
        : moved > 0
          ? `the next pass confirms that none is left (a row written during this one may have copied an old value)`
          : `${this.owners} no longer need SECRETS_KEY_PREVIOUS`);
    // A pass reads every row: what it did not move is under the current key now, or in the error above.
    const report =
      `${unreadable.length} ${this.values} still under SECRETS_KEY_PREVIOUS (key ${previous}) after re-encryption ` +
      `to SECRETS_KEY (key ${this.keyring.currentKeyId}); ${needed}`;
    // Said once, and again whenever it changes (a pass that moved rows, keys that expired).
    if (moved === 0 && report === this.lastReport) return;
    this.lastReport = report;
    this.logger.log(`re-encrypted ${moved} ${this.values}; ${report}`);
  }

  private async rekey(column: SealedColumn, previous: string): Promise<{ moved: number; unreadable: string[] }> {
    let after = '';
    let moved = 0;
    const unreadable: string[] = [];
    await inBatches(BATCH_SIZE, async (size) => {
      const rows = await column.page(after, size);
      after = rows.at(-1)?.id ?? after;
      const resealed: Resealed[] = [];
      for (const { id, sealed, context } of rows) {
        if (sealed === null || sealedKeyId(sealed) !== previous) continue;
        try {
          resealed.push({ id, was: sealed, sealed: this.keyring.seal(this.keyring.open(sealed, context), context) });
        } catch (error) {
          if (!(error instanceof SealedSecretError)) throw error;
          unreadable.push(id);
        }
      }
      if (resealed.length > 0) moved += (await column.replace(resealed)).length;
      return rows.length;
    });
    return { moved, unreadable };
  }
}
