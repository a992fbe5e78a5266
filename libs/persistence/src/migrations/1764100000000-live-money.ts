import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Deposits and their matching, vouchers, the review queue and settlement records (ADR 0006). */
export class LiveMoney1764100000000 implements MigrationInterface {
  name = 'LiveMoney1764100000000';

  async up(db: QueryRunner): Promise<void> {
    // The operator's defaults apply to new merchants; these fill the merchants that already exist.
    await db.query(`
      ALTER TABLE merchants
        ADD COLUMN fee_bps integer NOT NULL DEFAULT 250 CHECK (fee_bps BETWEEN 0 AND 5000),
        ADD COLUMN settlement_delay_days integer NOT NULL DEFAULT 2 CHECK (settlement_delay_days BETWEEN 1 AND 30)`);
    await db.query(`ALTER TABLE merchants ALTER COLUMN fee_bps DROP DEFAULT`);
    await db.query(`ALTER TABLE merchants ALTER COLUMN settlement_delay_days DROP DEFAULT`);

    // Given on first view of the payment screen, so creating a payment pays nothing for it.
    await db.query(`ALTER TABLE payments ADD COLUMN deposit_code text`);
    await db.query(
      `CREATE UNIQUE INDEX payments_deposit_code_idx ON payments (deposit_code) WHERE deposit_code IS NOT NULL`,
    );

    await db.query(`
      CREATE TABLE review_cases (
        id text PRIMARY KEY,
        livemode boolean NOT NULL,
        merchant_id text REFERENCES merchants (id),
        payment_id text REFERENCES payments (id),
        source text NOT NULL CHECK (source IN ('deposit', 'vouchers')),
        reason text NOT NULL,
        amount bigint NOT NULL CHECK (amount >= 0),
        status text NOT NULL CHECK (status IN ('open', 'resolved')),
        resolution text CHECK (resolution IN ('complete', 'reject', 'refund')),
        resolved_by text,
        resolution_note text,
        refund_amount bigint,
        resolved_at timestamptz,
        -- Milliseconds, as the list's keyset cursor carries them: a finer time would skip rows between pages.
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CHECK ((status = 'open') = (resolution IS NULL))
      )`);
    await db.query(`CREATE INDEX review_cases_queue_idx ON review_cases (status, created_at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX review_cases_merchant_idx ON review_cases (merchant_id, livemode, created_at DESC, id DESC)`,
    );
    await db.query(`CREATE INDEX review_cases_payment_idx ON review_cases (payment_id)`);

    // feed: 'bank' for the operator's bank feed (live money), 'test:<merchant id>' for test-helper deposits.
    await db.query(`
      CREATE TABLE deposits (
        id text PRIMARY KEY,
        feed text NOT NULL,
        livemode boolean NOT NULL,
        bank_transaction_id text NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        deposit_code text,
        depositor_name text NOT NULL,
        received_at timestamptz NOT NULL,
        payment_id text REFERENCES payments (id),
        outcome text NOT NULL CHECK (outcome IN ('matched', 'review')),
        review_case_id text REFERENCES review_cases (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (feed, bank_transaction_id)
      )`);
    await db.query(`CREATE INDEX deposits_payment_idx ON deposits (payment_id) WHERE payment_id IS NOT NULL`);
    await db.query(
      `CREATE INDEX deposits_review_case_idx ON deposits (review_case_id) WHERE review_case_id IS NOT NULL`,
    );

    // A PIN is a bearer secret: only its SHA-256 is kept.
    await db.query(`
      CREATE TABLE vouchers (
        id text PRIMARY KEY,
        livemode boolean NOT NULL,
        issuer text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('culture', 'book')),
        pin_hash text NOT NULL,
        pin_last4 text NOT NULL,
        face_value bigint NOT NULL CHECK (face_value > 0),
        status text NOT NULL CHECK (status IN ('available', 'held', 'redeemed')),
        payment_id text REFERENCES payments (id),
        held_at timestamptz,
        redeemed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (livemode, pin_hash),
        CHECK ((status = 'available') = (payment_id IS NULL))
      )`);
    await db.query(`CREATE INDEX vouchers_payment_idx ON vouchers (payment_id) WHERE payment_id IS NOT NULL`);
    // When a payment leaves pending, its held vouchers follow in the same transaction, whichever path
    // moved it (deposit, review, sweeper, screen, test helper): redeemed if it completed, else released.
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
    // Wrong PINs, counted per payment and per client to throttle guessing across API instances.
    await db.query(`
      CREATE TABLE voucher_pin_failures (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        payment_id text NOT NULL,
        client text NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX voucher_pin_failures_payment_idx ON voucher_pin_failures (payment_id, failed_at)`);
    await db.query(`CREATE INDEX voucher_pin_failures_client_idx ON voucher_pin_failures (client, failed_at)`);

    await db.query(`
      CREATE TABLE settlements (
        payment_id text PRIMARY KEY REFERENCES payments (id),
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        order_id text NOT NULL,
        gross_amount bigint NOT NULL,
        fee_bps integer NOT NULL,
        fee_amount bigint NOT NULL,
        vat_amount bigint NOT NULL,
        net_amount bigint NOT NULL,
        sales_date date NOT NULL,
        payout_date date NOT NULL,
        completed_at timestamptz NOT NULL,
        CHECK (gross_amount = fee_amount + vat_amount + net_amount)
      )`);
    await db.query(`CREATE INDEX settlements_list_idx ON settlements (merchant_id, livemode, sales_date, payment_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE settlements');
    await db.query('DROP TABLE voucher_pin_failures');
    await db.query('DROP TRIGGER payments_settle_voucher_holds ON payments');
    await db.query('DROP FUNCTION settle_voucher_holds()');
    await db.query('DROP TABLE vouchers');
    await db.query('DROP TABLE deposits');
    await db.query('DROP TABLE review_cases');
    await db.query('DROP INDEX payments_deposit_code_idx');
    await db.query('ALTER TABLE payments DROP COLUMN deposit_code');
    await db.query('ALTER TABLE merchants DROP COLUMN settlement_delay_days, DROP COLUMN fee_bps');
  }
}
