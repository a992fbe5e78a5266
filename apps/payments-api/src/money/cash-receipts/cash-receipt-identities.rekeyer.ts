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
import { cashReceiptIdentityContext, CashReceiptIdentities } from './cash-receipt-identities';

/**
 * During a SECRETS_KEY rotation, re-seals the buyers' numbers still under SECRETS_KEY_PREVIOUS with
 * SECRETS_KEY (SealedColumnsRekeyer: by primary key in short batches, compare-and-set, counts and ids
 * only, never a number): the requests kept on payments until they complete, then the receipts, each
 * bound to its payment. A create with a cash receipt is fingerprinted under SECRETS_KEY
 * (KeyedFingerprints), so the report also says until when unexpired idempotency keys still need the
 * previous key.
 */
@Injectable()
export class CashReceiptIdentitiesRekeyer extends SealedColumnsRekeyer {
  protected readonly keyring: SecretsKeyring;
  protected readonly values = "cash receipt buyers' numbers";
  protected readonly owners = 'cash receipts';

  constructor(
    identities: CashReceiptIdentities,
    private readonly idempotencyKeys: IdempotencyKeysRepository,
    @InjectDataSource() private readonly db: DataSource,
  ) {
    super();
    this.keyring = identities.keyring;
  }

  protected columns(): SealedColumn[] {
    return [
      {
        // A page of payments whether they hold a request or not: few do, and a filter in the query
        // could read the whole table before it found a page of them.
        page: async (after, size) =>
          (
            await sqlRows<{ id: string; sealed: string | null }>(
              this.db,
              `SELECT id, cash_receipt_identity_sealed AS sealed FROM payments WHERE id > $1 ORDER BY id LIMIT $2`,
              [after, size],
            )
          ).map((row) => ({ ...row, context: cashReceiptIdentityContext(row.id) })),
        replace: (resealed) =>
          sqlRows(
            this.db,
            `UPDATE payments p SET cash_receipt_identity_sealed = r.sealed
               FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, was, sealed)
               WHERE p.id = r.id AND p.cash_receipt_identity_sealed = r.was
               RETURNING p.id`,
            resealedColumns(resealed),
          ),
      },
      {
        // A self-issued receipt has no number sealed (the tax office's own is public).
        page: async (after, size) =>
          (
            await sqlRows<{ id: string; payment_id: string; sealed: string | null }>(
              this.db,
              `SELECT id, payment_id, identity_number_sealed AS sealed FROM cash_receipts
               WHERE id > $1 ORDER BY id LIMIT $2`,
              [after, size],
            )
          ).map(({ id, payment_id, sealed }) => ({ id, sealed, context: cashReceiptIdentityContext(payment_id) })),
        replace: (resealed) =>
          sqlRows(
            this.db,
            `UPDATE cash_receipts c SET identity_number_sealed = r.sealed
               FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, was, sealed)
               WHERE c.id = r.id AND c.identity_number_sealed = r.was
               RETURNING c.id`,
            resealedColumns(resealed),
          ),
      },
    ];
  }

  protected alsoNeedingPreviousKey(previousKeyId: string): Promise<string | null> {
    return keysFingerprintedUnder(this.idempotencyKeys, previousKeyId);
  }
}
