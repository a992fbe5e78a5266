import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event and a settlement record reference their payment by (id, merchant_id, livemode), as a refund
 * already does, instead of by id and by merchant separately: one check per row instead of two (a
 * refund writes an event and a record: ADR 0015), and the row's merchant and mode must be its
 * payment's. A refund's own reference to its merchant is implied by its payment's and goes.
 *
 * The new references are NOT VALID, so the migration reads neither table: a row already there was
 * checked by the two references it replaces (its payment and its merchant exist), not for the two
 * belonging together, which payhook has always written them to. Postgres enforces a NOT VALID foreign
 * key in full on every new or changed row.
 */
export class PaymentScopedReferences1765400000000 implements MigrationInterface {
  name = 'PaymentScopedReferences1765400000000';

  async up(db: QueryRunner): Promise<void> {
    for (const table of ['events', 'settlements']) {
      await db.query(`
        ALTER TABLE ${table}
          ADD CONSTRAINT ${table}_payment_fkey FOREIGN KEY (payment_id, merchant_id, livemode)
            REFERENCES payments (id, merchant_id, livemode) NOT VALID,
          DROP CONSTRAINT ${table}_payment_id_fkey,
          DROP CONSTRAINT ${table}_merchant_id_fkey`);
    }
    await db.query(`ALTER TABLE refunds DROP CONSTRAINT refunds_merchant_id_fkey`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE refunds ADD CONSTRAINT refunds_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants (id)`,
    );
    for (const table of ['events', 'settlements']) {
      await db.query(`
        ALTER TABLE ${table}
          ADD CONSTRAINT ${table}_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments (id),
          ADD CONSTRAINT ${table}_merchant_id_fkey FOREIGN KEY (merchant_id) REFERENCES merchants (id),
          DROP CONSTRAINT ${table}_payment_fkey`);
    }
  }
}
