import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A payment's held vouchers were redeemed or released by a trigger on payments: a writer of the
 * vouchers table nobody reading the code could see. The ledger's payment moves now settle them in the
 * same transaction (core/ledger/voucher-writes.ts, settleHolds), so the trigger goes. An instance of
 * the previous release still moving payments after this ran would leave their vouchers held: stop
 * them first (docs/running.md, upgrading). The repair below settles any hold whose payment had
 * already left pending.
 */
export class VoucherHoldsSettledByTheLedger1766900000000 implements MigrationInterface {
  name = 'VoucherHoldsSettledByTheLedger1766900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query('DROP TRIGGER payments_settle_voucher_holds ON payments');
    await db.query('DROP FUNCTION settle_voucher_holds()');
    await db.query(`
      UPDATE vouchers v
         SET status = CASE WHEN p.status = 'completed' THEN 'redeemed' ELSE 'available' END,
             redeemed_at = CASE WHEN p.status = 'completed' THEN now() END,
             payment_id = CASE WHEN p.status = 'completed' THEN v.payment_id END,
             held_at = CASE WHEN p.status = 'completed' THEN v.held_at END
        FROM payments p
       WHERE p.id = v.payment_id AND v.status = 'held' AND p.status <> 'pending'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE FUNCTION settle_voucher_holds() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status = 'completed' THEN
          UPDATE vouchers SET status = 'redeemed', redeemed_at = now() WHERE payment_id = NEW.id AND status = 'held';
        ELSE
          UPDATE vouchers SET status = 'available', payment_id = NULL, held_at = NULL
           WHERE payment_id = NEW.id AND status = 'held';
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER payments_settle_voucher_holds
        AFTER UPDATE OF status ON payments
        FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status <> 'pending')
        EXECUTE FUNCTION settle_voucher_holds()`);
  }
}
