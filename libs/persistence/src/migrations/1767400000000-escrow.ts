import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Escrow (구매안전서비스), issue 52.
 *
 * payments.escrow_*: an escrow payment has escrow_status and the buyer's e-mail address from create
 * (both or neither). The shipment sets the carrier, the tracking number, when it shipped, when it
 * confirms by itself, and the digest (SHA-256) of the buyer's link token: the token is a bearer
 * secret, so only its digest is kept, and the buyer's page finds the payment through
 * payments_escrow_token_idx. A confirmation or a rejection closes it once; the fields follow the
 * status, so a row never says `confirmed` without saying when and how.
 *
 * settlements.payout_status: an escrow payment's records (its own and its refunds') are `held`, with
 * no payout date and no payout rule yet, until the buyer confirms; then `scheduled` like every other
 * record. Existing records are all scheduled (the column's default, written without a table rewrite).
 *
 * review_cases.source gains `escrow`: a rejection opens a case for the operator.
 *
 * The indexes on payments are built CONCURRENTLY (payments is large and busy), outside a
 * transaction, each step able to run again after a run that stopped half-way.
 */
export class Escrow1767400000000 implements MigrationInterface {
  name = 'Escrow1767400000000';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE payments
        ADD COLUMN IF NOT EXISTS escrow_status text,
        ADD COLUMN IF NOT EXISTS escrow_buyer_email text,
        ADD COLUMN IF NOT EXISTS escrow_carrier text,
        ADD COLUMN IF NOT EXISTS escrow_tracking_number text,
        ADD COLUMN IF NOT EXISTS escrow_shipped_at timestamptz,
        ADD COLUMN IF NOT EXISTS escrow_auto_confirm_at timestamptz,
        ADD COLUMN IF NOT EXISTS escrow_token_digest bytea,
        ADD COLUMN IF NOT EXISTS escrow_confirmed_at timestamptz,
        ADD COLUMN IF NOT EXISTS escrow_auto_confirmed boolean,
        ADD COLUMN IF NOT EXISTS escrow_rejected_at timestamptz,
        ADD COLUMN IF NOT EXISTS escrow_reject_reason text`);
    await db.query(`
      ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_escrow_check,
        ADD CONSTRAINT payments_escrow_check CHECK (
          (escrow_status IS NULL OR escrow_status IN ('awaiting_shipment', 'shipped', 'confirmed', 'rejected'))
          AND (escrow_status IS NULL) = (escrow_buyer_email IS NULL)
          AND (COALESCE(escrow_status, 'awaiting_shipment') = 'awaiting_shipment') = (escrow_shipped_at IS NULL)
          AND (escrow_shipped_at IS NULL) = (escrow_carrier IS NULL)
          AND (escrow_shipped_at IS NULL) = (escrow_tracking_number IS NULL)
          AND (escrow_shipped_at IS NULL) = (escrow_auto_confirm_at IS NULL)
          AND (escrow_shipped_at IS NULL) = (escrow_token_digest IS NULL)
          AND (escrow_status IS NOT DISTINCT FROM 'confirmed') = (escrow_confirmed_at IS NOT NULL)
          AND (escrow_confirmed_at IS NULL) = (escrow_auto_confirmed IS NULL)
          AND (escrow_status IS NOT DISTINCT FROM 'rejected') = (escrow_rejected_at IS NOT NULL)
          AND (escrow_rejected_at IS NULL) = (escrow_reject_reason IS NULL)) NOT VALID`);
    // The buyer's page: one payment per link. Dropped first: a build that stopped half-way leaves an
    // invalid index that IF NOT EXISTS would keep.
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS payments_escrow_token_idx`);
    await db.query(`
      CREATE UNIQUE INDEX CONCURRENTLY payments_escrow_token_idx ON payments (escrow_token_digest)
      WHERE escrow_token_digest IS NOT NULL`);
    // The auto-confirm task: shipped escrows by when they confirm by themselves.
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS payments_escrow_due_idx`);
    await db.query(`
      CREATE INDEX CONCURRENTLY payments_escrow_due_idx ON payments (escrow_auto_confirm_at)
      WHERE escrow_status = 'shipped'`);
    await db.query(`ALTER TABLE payments VALIDATE CONSTRAINT payments_escrow_check`);

    await db.query(`ALTER TABLE settlements ADD COLUMN IF NOT EXISTS payout_status text NOT NULL DEFAULT 'scheduled'`);
    await db.query(
      `ALTER TABLE settlements ALTER COLUMN payout_date DROP NOT NULL, ALTER COLUMN payout_rule DROP NOT NULL`,
    );
    await db.query(`
      ALTER TABLE settlements DROP CONSTRAINT IF EXISTS settlements_payout_status_check,
        ADD CONSTRAINT settlements_payout_status_check CHECK (
          payout_status IN ('scheduled', 'held')
          AND (payout_status = 'held') = (payout_date IS NULL)
          AND (payout_status = 'held') = (payout_rule IS NULL)) NOT VALID`);
    await db.query(`ALTER TABLE settlements VALIDATE CONSTRAINT settlements_payout_status_check`);

    await db.query(`
      ALTER TABLE review_cases DROP CONSTRAINT IF EXISTS review_cases_source_check,
        ADD CONSTRAINT review_cases_source_check CHECK (source IN ('deposit', 'vouchers', 'escrow')) NOT VALID`);
    await db.query(`ALTER TABLE review_cases VALIDATE CONSTRAINT review_cases_source_check`);
  }

  async down(db: QueryRunner): Promise<void> {
    // Escrow events and cases go with the escrow: their attempts and deliveries first.
    for (const table of ['webhook_attempts', 'webhook_deliveries'])
      await db.query(`DELETE FROM ${table} WHERE event_id IN (SELECT id FROM events WHERE type LIKE 'escrow.%')`);
    await db.query(`DELETE FROM events WHERE type LIKE 'escrow.%'`);
    await db.query(`DELETE FROM review_cases WHERE source = 'escrow'`);
    await db.query(`
      ALTER TABLE review_cases DROP CONSTRAINT IF EXISTS review_cases_source_check,
        ADD CONSTRAINT review_cases_source_check CHECK (source IN ('deposit', 'vouchers'))`);
    // A held record has no payout date to go back to: it is dated its sales date, due at once.
    await db.query(`
      UPDATE settlements SET payout_status = 'scheduled', payout_date = sales_date, payout_rule = 'weekdays_only'
      WHERE payout_status = 'held'`);
    await db.query(`
      ALTER TABLE settlements DROP CONSTRAINT IF EXISTS settlements_payout_status_check,
        DROP COLUMN IF EXISTS payout_status,
        ALTER COLUMN payout_date SET NOT NULL, ALTER COLUMN payout_rule SET NOT NULL`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS payments_escrow_due_idx`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS payments_escrow_token_idx`);
    await db.query(`
      ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_escrow_check,
        DROP COLUMN IF EXISTS escrow_status, DROP COLUMN IF EXISTS escrow_buyer_email,
        DROP COLUMN IF EXISTS escrow_carrier, DROP COLUMN IF EXISTS escrow_tracking_number,
        DROP COLUMN IF EXISTS escrow_shipped_at, DROP COLUMN IF EXISTS escrow_auto_confirm_at,
        DROP COLUMN IF EXISTS escrow_token_digest, DROP COLUMN IF EXISTS escrow_confirmed_at,
        DROP COLUMN IF EXISTS escrow_auto_confirmed, DROP COLUMN IF EXISTS escrow_rejected_at,
        DROP COLUMN IF EXISTS escrow_reject_reason`);
  }
}
