import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SecretsKeyring } from '@payhook/config';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { IdempotencyKeysRepository, keysFingerprintedUnder } from '../../core/idempotency';
import {
  resealedColumns,
  SealedColumnsRekeyer,
  type SealedColumn,
} from '../../platform/secrets/sealed-columns.rekeyer';
import { refundAccountContext, RefundAccounts } from './refund-accounts';

/**
 * During a SECRETS_KEY rotation, re-seals the refund accounts still under SECRETS_KEY_PREVIOUS with
 * SECRETS_KEY (SealedColumnsRekeyer: by primary key in short batches, compare-and-set, counts and ids
 * only), as SigningSecretsRekeyer does for signing secrets. Refund idempotency keys are fingerprinted
 * under SECRETS_KEY too (KeyedFingerprints) and cannot be re-keyed: a retry matches under the previous
 * key only while it is configured, so the report also says until when unexpired keys still need it.
 */
@Injectable()
export class RefundAccountsRekeyer extends SealedColumnsRekeyer {
  protected readonly keyring: SecretsKeyring;
  protected readonly values = 'refund accounts';
  protected readonly owners = 'refunds';

  constructor(
    accounts: RefundAccounts,
    private readonly idempotencyKeys: IdempotencyKeysRepository,
    @InjectDataSource() private readonly db: DataSource,
  ) {
    super();
    this.keyring = accounts.keyring;
  }

  protected columns(): SealedColumn[] {
    return [
      {
        page: async (after, size) =>
          (
            await sqlRows<{ id: string; sealed: string }>(
              this.db,
              `SELECT id, refund_account_sealed AS sealed FROM refunds
               WHERE id > $1 AND refund_account_sealed IS NOT NULL ORDER BY id LIMIT $2`,
              [after, size],
            )
          ).map((row) => ({ ...row, context: refundAccountContext(row.id) })),
        replace: (resealed) =>
          sqlRows(
            this.db,
            `UPDATE refunds f SET refund_account_sealed = r.sealed
               FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, was, sealed)
               WHERE f.id = r.id AND f.refund_account_sealed = r.was
               RETURNING f.id`,
            resealedColumns(resealed),
          ),
      },
    ];
  }

  protected alsoNeedingPreviousKey(previousKeyId: string): Promise<string | null> {
    return keysFingerprintedUnder(this.idempotencyKeys, previousKeyId);
  }
}
