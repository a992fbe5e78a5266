import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tax-free part a payment's refunds hold, beside the amount they hold (issue 50).
 *
 * payments.refund_held_tax_free_amount is the sum of the tax-free parts of the payment's succeeded
 * and pending refunds, as refund_held_amount is of their amounts: a refund adds its tax-free part in
 * the guarded UPDATE that reserves its amount, a failure takes it back with the amount. It is a
 * column of the payment's row, not a sum over refunds, so that the refund that waited on the row lock
 * reads what the one before it took (a sum in the same statement would be read from the snapshot
 * taken before the wait) and two refunds at once never both take the last tax-free won.
 * payments_refund_tax_free_check is the backstop, whatever the writer: the refunds never hold more
 * tax-free than the payment has, nor more of its taxable part (amount − tax-free) than it has.
 *
 * Refunds inserted before this migration have no tax-free part (the column came with the last one),
 * but any that do are counted. The default is a constant: adding the column rewrites nothing.
 */
export class RefundHeldTaxFree1767210000000 implements MigrationInterface {
  name = 'RefundHeldTaxFree1767210000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE payments ADD COLUMN refund_held_tax_free_amount bigint NOT NULL DEFAULT 0`);
    await db.query(`
      UPDATE payments p SET refund_held_tax_free_amount = held.tax_free
      FROM (
        SELECT payment_id, sum(tax_free_amount)::bigint AS tax_free FROM refunds
        WHERE status IN ('pending', 'succeeded') AND tax_free_amount > 0
        GROUP BY payment_id
      ) held
      WHERE p.id = held.payment_id`);
    await db.query(`
      ALTER TABLE payments ADD CONSTRAINT payments_refund_tax_free_check CHECK (
        0 <= refund_held_tax_free_amount AND refund_held_tax_free_amount <= tax_free_amount
        AND refund_held_amount - refund_held_tax_free_amount <= amount - tax_free_amount)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE payments DROP COLUMN refund_held_tax_free_amount`);
  }
}
