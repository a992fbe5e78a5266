import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SealedSecretError, sealedKeyId } from '@payhook/config';
import { sqlRows, inBatches, PeriodicTask } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { IdempotencyKeysRepository, keyedFingerprintPrefix } from '../../core/idempotency';
import { refundAccountContext, RefundAccounts } from './refund-accounts';

const BATCH_SIZE = 500;

/**
 * During a SECRETS_KEY rotation (SECRETS_KEY_PREVIOUS set), re-seals the refund accounts still under
 * the previous key with the current one, as SigningSecretsRekeyer does for signing secrets, from
 * boot and then every interval, so that once it reports none left the previous key can go. The
 * refunds table is large: each pass walks it by primary key in short batches instead of scanning
 * for the old key's prefix. A row changed meanwhile is left as it now is. Logs counts and ids, never
 * an account. Refund idempotency keys are fingerprinted under SECRETS_KEY too (KeyedFingerprints)
 * and cannot be re-keyed (only the body's HMAC is stored): a retry matches under the previous key
 * only while it is configured, so the report also says until when unexpired keys still need it.
 */
@Injectable()
export class RefundAccountsRekeyer extends PeriodicTask {
  protected readonly intervalMs = 10 * 60_000;
  private lastReport: string | null = null;

  constructor(
    private readonly accounts: RefundAccounts,
    private readonly idempotencyKeys: IdempotencyKeysRepository,
    @InjectDataSource() private readonly db: DataSource,
  ) {
    super();
  }

  /** Without SECRETS_KEY_PREVIOUS nothing is being rotated: no timer at all. */
  override onApplicationBootstrap(): void {
    if (!this.accounts.keyring.previousKeyId) return;
    super.onApplicationBootstrap();
    void this.runOnce();
  }

  protected async tick(): Promise<void> {
    const { keyring } = this.accounts;
    const previous = keyring.previousKeyId;
    if (!previous) return;
    let after = '';
    let moved = 0;
    const unreadable: string[] = [];
    await inBatches(BATCH_SIZE, async (size) => {
      const rows = await sqlRows<{ id: string; sealed: string }>(
        this.db,
        `SELECT id, refund_account_sealed AS sealed FROM refunds
         WHERE id > $1 AND refund_account_sealed IS NOT NULL ORDER BY id LIMIT $2`,
        [after, size],
      );
      after = rows.at(-1)?.id ?? after;
      const resealed: { id: string; was: string; sealed: string }[] = [];
      for (const row of rows.filter((one) => sealedKeyId(one.sealed) === previous)) {
        const context = refundAccountContext(row.id);
        try {
          resealed.push({
            id: row.id,
            was: row.sealed,
            sealed: keyring.seal(keyring.open(row.sealed, context), context),
          });
        } catch (error) {
          if (!(error instanceof SealedSecretError)) throw error;
          unreadable.push(row.id);
        }
      }
      if (resealed.length > 0) {
        const updated = await sqlRows(
          this.db,
          `UPDATE refunds f SET refund_account_sealed = r.sealed
           FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, was, sealed)
           WHERE f.id = r.id AND f.refund_account_sealed = r.was
           RETURNING f.id`,
          [resealed.map((row) => row.id), resealed.map((row) => row.was), resealed.map((row) => row.sealed)],
        );
        moved += updated.length;
      }
      return rows.length;
    });
    if (unreadable.length > 0) {
      this.logger.error(
        `${unreadable.length} refund accounts name SECRETS_KEY_PREVIOUS (key ${previous}) but do not open with it ` +
          `(changed, or copied from another row): ${unreadable.slice(0, 5).join(', ')}`,
      );
    }
    const fingerprinted = await this.idempotencyKeys.unexpiredWithFingerprintPrefix(keyedFingerprintPrefix(previous));
    const needed =
      fingerprinted.until && fingerprinted.count > 0
        ? `${fingerprinted.count} refund idempotency keys still fingerprinted under the previous key: ` +
          `keep SECRETS_KEY_PREVIOUS until ${fingerprinted.until.toISOString()} (their last expiry)`
        : unreadable.length === 0
          ? 'refunds no longer need SECRETS_KEY_PREVIOUS'
          : 'the unreadable refund accounts above are lost without SECRETS_KEY_PREVIOUS';
    // A pass reads every row: what it did not move is under the current key now, or in the error above.
    const report =
      `${unreadable.length} refund accounts still under SECRETS_KEY_PREVIOUS (key ${previous}) after re-encryption ` +
      `to SECRETS_KEY (key ${keyring.currentKeyId}); ${needed}`;
    // Said once, and again whenever it changes (a pass that moved rows, keys that expired).
    if (moved === 0 && report === this.lastReport) return;
    this.lastReport = report;
    this.logger.log(`re-encrypted ${moved} refund accounts; ${report}`);
  }
}
