import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each payment's VAT split and the merchant's own keys (metadata), on payments and refunds. A
 * payment keeps its tax-free part (its VAT and supplied value follow from the amount); a refund keeps
 * its tax-free part, and its VAT and supplied value once it succeeds (by running totals over the
 * payment's earlier refunds: core/ledger/tax-breakdown.ts). Refunds that succeeded before get theirs
 * here, by the same arithmetic over payments that had no tax-free part.
 */
export class TaxBreakdownAndMetadata1767200000000 implements MigrationInterface {
  name = 'TaxBreakdownAndMetadata1767200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE payments
        ADD COLUMN tax_free_amount bigint NOT NULL DEFAULT 0,
        ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}',
        ADD CONSTRAINT payments_tax_free_check CHECK (tax_free_amount BETWEEN 0 AND amount)`);
    await db.query(`
      ALTER TABLE refunds
        ADD COLUMN tax_free_amount bigint NOT NULL DEFAULT 0,
        ADD COLUMN vat bigint,
        ADD COLUMN supplied_amount bigint,
        ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'`);
    await db.query(`
      UPDATE refunds r SET vat = split.vat, supplied_amount = r.amount - split.vat
      FROM (
        SELECT r.id,
               (p.amount - before.taxable + 5) / 11 - (p.amount - before.taxable - r.amount + 5) / 11 AS vat
        FROM refunds r
        JOIN payments p ON p.id = r.payment_id
        CROSS JOIN LATERAL (
          SELECT coalesce(sum(earlier.amount), 0)::bigint AS taxable FROM refunds earlier
          WHERE earlier.payment_id = r.payment_id AND earlier.status = 'succeeded'
            AND (earlier.succeeded_at, earlier.id) < (r.succeeded_at, r.id)
        ) before
        WHERE r.status = 'succeeded'
      ) split
      WHERE r.id = split.id`);
    await db.query(`
      ALTER TABLE refunds
        ADD CONSTRAINT refunds_tax_free_check CHECK (tax_free_amount BETWEEN 0 AND amount),
        ADD CONSTRAINT refunds_vat_check CHECK (
          (status = 'succeeded') = (vat IS NOT NULL) AND (vat IS NULL) = (supplied_amount IS NULL)
          AND vat >= 0 AND supplied_amount >= 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE refunds DROP COLUMN tax_free_amount, DROP COLUMN vat, DROP COLUMN supplied_amount, DROP COLUMN metadata`);
    await db.query(`ALTER TABLE payments DROP COLUMN tax_free_amount, DROP COLUMN metadata`);
  }
}
