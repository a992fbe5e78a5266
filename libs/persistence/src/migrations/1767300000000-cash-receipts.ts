import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cash receipts (현금영수증), issue 51.
 *
 * cash_receipts: one row per receipt, `crc_` ids, of a payment of the same merchant and mode. An
 * `issue` receipt covers what the buyer paid and was not refunded when it was made; a `cancel`
 * receipt is made for each refund that succeeds on a payment whose issue receipt is pending or
 * issued (refund_id set, one per refund: cash_receipts_one_per_refund). A payment has at most one
 * issue receipt that is pending or issued (cash_receipts_one_open_issue): two requests at once make
 * one receipt, the database decides. The buyer's number is stored sealed (AES-256-GCM under
 * SECRETS_KEY, bound to the payment: its issue and cancel receipts share the buyer) beside its mask;
 * a self-issued receipt goes to the tax office's own number, which is public, and has none sealed.
 * The timestamps follow the status, so a row never says `issued` without saying when and with which
 * number.
 *
 * payments.cash_receipt_*: what the buyer or the merchant asked for before the payment completed
 * (the receipt is made at completion). cash_receipt_test_failure is the failure a test receipt will
 * have (the documented failing test number), decided when the number was given, so that the
 * completion's statement needs no key to tell. All four are set together or not at all.
 *
 * merchants.cash_receipt_required: the operator's mark of a merchant that must issue without being
 * asked (의무발행업종).
 *
 * events.cash_receipt_id names the receipt of a cash_receipt.* event: a payment may have several
 * receipts of one type (a failed issue receipt, then another), so the one-event-per-payment-and-type
 * index gains it. Built CONCURRENTLY before the old one goes (events is large and busy), outside a
 * transaction, each step able to run again after a run that stopped half-way.
 */
export class CashReceipts1767300000000 implements MigrationInterface {
  name = 'CashReceipts1767300000000';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE merchants ADD COLUMN IF NOT EXISTS cash_receipt_required boolean NOT NULL DEFAULT false`,
    );
    await db.query(`
      ALTER TABLE payments
        ADD COLUMN IF NOT EXISTS cash_receipt_type text,
        ADD COLUMN IF NOT EXISTS cash_receipt_identity_sealed text,
        ADD COLUMN IF NOT EXISTS cash_receipt_identity_masked text,
        ADD COLUMN IF NOT EXISTS cash_receipt_test_failure text`);
    await db.query(`
      ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_cash_receipt_request_check,
        ADD CONSTRAINT payments_cash_receipt_request_check CHECK (
          (cash_receipt_type IS NULL) = (cash_receipt_identity_sealed IS NULL)
          AND (cash_receipt_type IS NULL) = (cash_receipt_identity_masked IS NULL)
          AND (cash_receipt_test_failure IS NULL OR cash_receipt_type IS NOT NULL)) NOT VALID`);
    await db.query(`
      CREATE TABLE IF NOT EXISTS cash_receipts (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        payment_id text NOT NULL,
        refund_id text REFERENCES refunds (id),
        order_id text NOT NULL,
        transaction_type text NOT NULL CHECK (transaction_type IN ('issue', 'cancel')),
        type text NOT NULL CHECK (type IN ('income_deduction', 'expense_proof')),
        identity_number_sealed text,
        identity_number_masked text NOT NULL,
        self_issued boolean NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        tax_free_amount bigint NOT NULL,
        vat bigint NOT NULL CHECK (vat >= 0),
        supplied_amount bigint NOT NULL CHECK (supplied_amount >= 0),
        status text NOT NULL CHECK (status IN ('pending', 'issued', 'failed')),
        issue_number text,
        failure_reason text,
        created_at timestamptz NOT NULL,
        issued_at timestamptz,
        failed_at timestamptz,
        CONSTRAINT cash_receipts_payment_fkey FOREIGN KEY (payment_id, merchant_id, livemode)
          REFERENCES payments (id, merchant_id, livemode),
        CONSTRAINT cash_receipts_refund_check CHECK ((transaction_type = 'cancel') = (refund_id IS NOT NULL)),
        CONSTRAINT cash_receipts_buyer_check CHECK (self_issued OR identity_number_sealed IS NOT NULL),
        CONSTRAINT cash_receipts_amounts_check CHECK (
          tax_free_amount BETWEEN 0 AND amount AND vat + supplied_amount = amount - tax_free_amount),
        CONSTRAINT cash_receipts_status_fields_check CHECK (
          (status = 'issued') = (issued_at IS NOT NULL) AND (status = 'issued') = (issue_number IS NOT NULL)
          AND (status = 'failed') = (failed_at IS NOT NULL) AND (status = 'failed') = (failure_reason IS NOT NULL))
      )`);
    await db.query(`
      CREATE UNIQUE INDEX IF NOT EXISTS cash_receipts_one_open_issue ON cash_receipts (payment_id)
      WHERE transaction_type = 'issue' AND status IN ('pending', 'issued')`);
    await db.query(
      `CREATE UNIQUE INDEX IF NOT EXISTS cash_receipts_one_per_refund ON cash_receipts (refund_id) WHERE refund_id IS NOT NULL`,
    );
    // A payment's receipts (the console, the list's paymentId=, the cancel receipts' issue receipt).
    await db.query(
      `CREATE INDEX IF NOT EXISTS cash_receipts_payment_idx ON cash_receipts (payment_id, created_at DESC, id DESC)`,
    );
    // The merchant's list, newest first, with or without status=.
    await db.query(`
      CREATE INDEX IF NOT EXISTS cash_receipts_list_idx ON cash_receipts (merchant_id, livemode, created_at DESC, id DESC)`);
    await db.query(`
      CREATE INDEX IF NOT EXISTS cash_receipts_status_list_idx
      ON cash_receipts (merchant_id, livemode, status, created_at DESC, id DESC)`);
    // The operator's queue: every merchant's, by status, oldest first.
    await db.query(`CREATE INDEX IF NOT EXISTS cash_receipts_queue_idx ON cash_receipts (status, created_at, id)`);

    await db.query(`ALTER TABLE events ADD COLUMN IF NOT EXISTS cash_receipt_id text`);
    await db.query(`ALTER TABLE events DROP CONSTRAINT IF EXISTS events_cash_receipt_id_fkey,
      ADD CONSTRAINT events_cash_receipt_id_fkey FOREIGN KEY (cash_receipt_id) REFERENCES cash_receipts (id) NOT VALID`);
    await db.query(`ALTER TABLE events VALIDATE CONSTRAINT events_cash_receipt_id_fkey`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS events_one_per_payment_and_type_v3`);
    await db.query(`
      CREATE UNIQUE INDEX CONCURRENTLY events_one_per_payment_and_type_v3
      ON events (payment_id, type, (COALESCE(refund_id, '')), (COALESCE(cash_receipt_id, '')))`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS events_one_per_payment_and_type_v2`);
    await db.query(`ALTER TABLE payments VALIDATE CONSTRAINT payments_cash_receipt_request_check`);
  }

  async down(db: QueryRunner): Promise<void> {
    // Receipt events go with their receipts: their attempts and deliveries first.
    for (const table of ['webhook_attempts', 'webhook_deliveries'])
      await db.query(
        `DELETE FROM ${table} WHERE event_id IN (SELECT id FROM events WHERE cash_receipt_id IS NOT NULL)`,
      );
    await db.query(`DELETE FROM events WHERE cash_receipt_id IS NOT NULL`);
    await db.query(`
      CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS events_one_per_payment_and_type_v2
      ON events (payment_id, type, (COALESCE(refund_id, '')))`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS events_one_per_payment_and_type_v3`);
    await db.query(`ALTER TABLE events DROP COLUMN IF EXISTS cash_receipt_id`);
    await db.query(`DROP TABLE IF EXISTS cash_receipts`);
    await db.query(`
      ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_cash_receipt_request_check,
        DROP COLUMN IF EXISTS cash_receipt_type, DROP COLUMN IF EXISTS cash_receipt_identity_sealed,
        DROP COLUMN IF EXISTS cash_receipt_identity_masked, DROP COLUMN IF EXISTS cash_receipt_test_failure`);
    await db.query(`ALTER TABLE merchants DROP COLUMN IF EXISTS cash_receipt_required`);
  }
}
