import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds (issue 26).
 *
 * refunds: one row per refund, `rfd_` ids, of a payment of the same merchant and mode
 * (refunds_payment_fkey on (payment_id, merchant_id, livemode), whose target is the unique
 * payments_id_merchant_livemode_key, built CONCURRENTLY first). The payer's refundAccount is stored only sealed, in
 * refund_account_sealed, as webhook signing secrets are (libs/config/src/sealed-secret.ts: AES-256-GCM
 * under SECRETS_KEY, additional data binding it to its own refund row). The timestamps follow the
 * status, so a row never says `succeeded` without saying when. created_at is written with
 * milliseconds, as the keyset cursors carry them.
 *
 * payments.refund_held_amount (succeeded + pending refunds) and payments.refunded_amount (succeeded)
 * make `refund_amount_exceeded` a decision of the database. A refund reserves its amount with
 *
 *   UPDATE payments SET refund_held_amount = refund_held_amount + $2
 *    WHERE id = $1 AND status = 'completed'
 *      AND refund_held_amount + $2 <= amount - <value of the vouchers the payment redeemed>
 *   RETURNING refund_held_amount, refunded_amount, amount
 *
 * (no row: the payment is not completed, or the remainder is too small; voucher value is never paid
 * out by transfer, so the part paid with vouchers is not refundable), which takes the payment's
 * row lock, so refunds racing each other queue on it and never add up to more than the payment.
 * A success adds the amount to refunded_amount; a failure takes it back from refund_held_amount.
 * payments_refund_amounts_check is the backstop: 0 <= refunded <= held <= amount, whatever the writer.
 * refunds_bank_transaction_id_key: one bank transfer is the success of one refund at most.
 * Both columns have a constant default: adding them rewrites nothing.
 *
 * events.refund_id names the refund of a refund.* event. One event per payment and type still holds
 * for payment events, and one per refund and type for refund events:
 * events_one_per_payment_and_type_v2 is unique on (payment_id, type, COALESCE(refund_id, '')),
 * non-partial so that every read by payment_id (the list's `paymentId=`, which shows a payment's
 * refund events with its others) keeps an index; events_one_per_refund_and_type is unique on
 * (refund_id, type) where refund_id is set. Both are built before the old index goes.
 * events_type_list_idx on (merchant_id, livemode, type, created_at DESC, id DESC) serves the list's
 * `type=` (say refund.succeeded, rare among payment events) as a range instead of a filtered walk
 * of events_list_idx.
 *
 * settlements: a payment has one record of type `payment` and one of type `refund` per succeeded
 * refund (negative amounts; completed_at holds the refund's succeeded_at, the record's instant).
 * The primary key on payment_id goes. settlements_one_per_payment_and_refund is unique on
 * (payment_id, COALESCE(refund_id, '')): one payment record per payment, and it serves every read
 * by payment_id as the key did; settlements_one_per_refund is unique on refund_id where it is set.
 * The day list's index gains a last key that orders refund records of one payment apart:
 * settlements_day_record_order_idx on (merchant_id, livemode, sales_date, completed_at, payment_id,
 * (COALESCE(refund_id, ''))). A keyset list is served by it (forwards or backwards) with
 *
 *   WHERE merchant_id = $1 AND livemode = $2
 *     AND (sales_date, completed_at, payment_id, COALESCE(refund_id, '')) > ($3, $4, $5, $6)
 *   ORDER BY settlements.sales_date, settlements.completed_at, settlements.payment_id,
 *            COALESCE(settlements.refund_id, '')
 *
 * (`<` and DESC on every key for the other direction); a list ordered without the last key still
 * uses it, as a prefix, but pages of one payment's records would not be total.
 *
 * Outside a transaction, like ListIndexes1764300000000: the indexes on events and settlements are
 * built CONCURRENTLY, since both tables are large and keep taking writes, and every step can run
 * again after a run that stopped half-way (IF NOT EXISTS, DROP ... IF EXISTS before ADD, an invalid
 * index dropped and built again). Constraints on existing tables are added NOT VALID and validated
 * apart: validating reads the table but takes no lock that stops writes.
 *
 * down() forgets every refund: refund records, refund events (and their attempts), then the schema.
 */
export class Refunds1765300000000 implements MigrationInterface {
  name = 'Refunds1765300000000';
  transaction = false;

  async up(db: QueryRunner): Promise<void> {
    // The target of refunds_payment_fkey: payments is large and busy, so the unique index is built
    // CONCURRENTLY and then becomes the constraint (a short lock, no scan).
    const [keyed] = (await db.query(
      `SELECT 1 FROM pg_constraint WHERE conname = 'payments_id_merchant_livemode_key'`,
    )) as [unknown?];
    if (!keyed) {
      await buildConcurrently(
        db,
        'payments_id_merchant_livemode_key',
        `UNIQUE INDEX CONCURRENTLY payments_id_merchant_livemode_key ON payments (id, merchant_id, livemode)`,
      );
      await db.query(
        `ALTER TABLE payments ADD CONSTRAINT payments_id_merchant_livemode_key
         UNIQUE USING INDEX payments_id_merchant_livemode_key`,
      );
    }
    await db.query(`
      CREATE TABLE IF NOT EXISTS refunds (
        id text PRIMARY KEY,
        payment_id text NOT NULL,
        merchant_id text NOT NULL REFERENCES merchants (id),
        livemode boolean NOT NULL,
        order_id text NOT NULL,
        amount bigint NOT NULL CHECK (amount > 0),
        currency text NOT NULL CHECK (currency = 'KRW'),
        reason text,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        refund_account_sealed text,
        bank_transaction_id text,
        failure_reason text,
        created_at timestamptz NOT NULL,
        succeeded_at timestamptz,
        failed_at timestamptz,
        CONSTRAINT refunds_succeeded_check CHECK ((status = 'succeeded') = (succeeded_at IS NOT NULL)),
        CONSTRAINT refunds_failed_check CHECK (
          (status = 'failed') = (failed_at IS NOT NULL) AND (status = 'failed') = (failure_reason IS NOT NULL)),
        CONSTRAINT refunds_bank_transaction_check CHECK (bank_transaction_id IS NULL OR status = 'succeeded'),
        -- A refund is of a payment of its own merchant and mode, whatever the writer.
        CONSTRAINT refunds_payment_fkey FOREIGN KEY (payment_id, merchant_id, livemode)
          REFERENCES payments (id, merchant_id, livemode)
      )`);
    // Every list is a range of one of these: the merchant's, newest first (all, by status, by
    // payment), and the operator's queue, oldest first. The table is new: no concurrent build needed.
    await db.query(
      `CREATE INDEX IF NOT EXISTS refunds_list_idx ON refunds (merchant_id, livemode, created_at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX IF NOT EXISTS refunds_status_list_idx
       ON refunds (merchant_id, livemode, status, created_at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX IF NOT EXISTS refunds_payment_idx
       ON refunds (merchant_id, livemode, payment_id, created_at DESC, id DESC)`,
    );
    // paymentId and status together: a page of them, not the payment's every refund filtered.
    await db.query(
      `CREATE INDEX IF NOT EXISTS refunds_payment_status_idx
       ON refunds (merchant_id, livemode, payment_id, status, created_at DESC, id DESC)`,
    );
    await db.query(`CREATE INDEX IF NOT EXISTS refunds_queue_idx ON refunds (status, created_at, id)`);
    // One bank transfer is the success of one refund at most (the operator's succeed answers 409 on a
    // second). CONCURRENTLY: a run again, once the queue takes writes, must not stop them.
    await buildConcurrently(
      db,
      'refunds_bank_transaction_id_key',
      `UNIQUE INDEX CONCURRENTLY IF NOT EXISTS refunds_bank_transaction_id_key
       ON refunds (bank_transaction_id) WHERE bank_transaction_id IS NOT NULL`,
    );

    await db.query(`
      ALTER TABLE payments
        ADD COLUMN IF NOT EXISTS refund_held_amount bigint NOT NULL DEFAULT 0,
        ADD COLUMN IF NOT EXISTS refunded_amount bigint NOT NULL DEFAULT 0`);
    await addValidatedConstraint(
      db,
      'payments',
      'payments_refund_amounts_check',
      `CHECK (0 <= refunded_amount AND refunded_amount <= refund_held_amount AND refund_held_amount <= amount)`,
    );

    await db.query(`ALTER TABLE events ADD COLUMN IF NOT EXISTS refund_id text`);
    await addValidatedConstraint(
      db,
      'events',
      'events_refund_id_fkey',
      `FOREIGN KEY (refund_id) REFERENCES refunds (id)`,
    );
    await buildConcurrently(
      db,
      'events_one_per_payment_and_type_v2',
      `UNIQUE INDEX CONCURRENTLY events_one_per_payment_and_type_v2
       ON events (payment_id, type, (COALESCE(refund_id, '')))`,
    );
    await buildConcurrently(
      db,
      'events_one_per_refund_and_type',
      `UNIQUE INDEX CONCURRENTLY events_one_per_refund_and_type ON events (refund_id, type) WHERE refund_id IS NOT NULL`,
    );
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS events_one_per_payment_and_type`);
    await buildConcurrently(
      db,
      'events_type_list_idx',
      `INDEX CONCURRENTLY IF NOT EXISTS events_type_list_idx
       ON events (merchant_id, livemode, type, created_at DESC, id DESC)`,
    );

    await db.query(`
      ALTER TABLE settlements
        ADD COLUMN IF NOT EXISTS type text NOT NULL DEFAULT 'payment',
        ADD COLUMN IF NOT EXISTS refund_id text`);
    await addValidatedConstraint(db, 'settlements', 'settlements_type_check', `CHECK (type IN ('payment', 'refund'))`);
    await addValidatedConstraint(
      db,
      'settlements',
      'settlements_refund_record_check',
      `CHECK ((type = 'refund') = (refund_id IS NOT NULL))`,
    );
    await addValidatedConstraint(
      db,
      'settlements',
      'settlements_refund_id_fkey',
      `FOREIGN KEY (refund_id) REFERENCES refunds (id)`,
    );
    await buildConcurrently(
      db,
      'settlements_one_per_payment_and_refund',
      `UNIQUE INDEX CONCURRENTLY settlements_one_per_payment_and_refund
       ON settlements (payment_id, (COALESCE(refund_id, '')))`,
    );
    await buildConcurrently(
      db,
      'settlements_one_per_refund',
      `UNIQUE INDEX CONCURRENTLY settlements_one_per_refund ON settlements (refund_id) WHERE refund_id IS NOT NULL`,
    );
    await db.query(`ALTER TABLE settlements DROP CONSTRAINT IF EXISTS settlements_pkey`);
    await buildConcurrently(
      db,
      'settlements_day_record_order_idx',
      `INDEX CONCURRENTLY settlements_day_record_order_idx
       ON settlements (merchant_id, livemode, sales_date, completed_at, payment_id, (COALESCE(refund_id, '')))`,
    );
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS settlements_day_order_idx`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS settlements_day_order_idx
       ON settlements (merchant_id, livemode, sales_date, completed_at, payment_id)`,
    );
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS settlements_day_record_order_idx`);
    await db.query(`DELETE FROM settlements WHERE refund_id IS NOT NULL`);
    await db.query(`
      DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'settlements_pkey') THEN
          CREATE UNIQUE INDEX IF NOT EXISTS settlements_pkey ON settlements (payment_id);
          ALTER TABLE settlements ADD CONSTRAINT settlements_pkey PRIMARY KEY USING INDEX settlements_pkey;
        END IF;
      END $$`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS settlements_one_per_refund`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS settlements_one_per_payment_and_refund`);
    await db.query(`
      ALTER TABLE settlements
        DROP CONSTRAINT IF EXISTS settlements_refund_id_fkey,
        DROP CONSTRAINT IF EXISTS settlements_refund_record_check,
        DROP CONSTRAINT IF EXISTS settlements_type_check,
        DROP COLUMN IF EXISTS refund_id,
        DROP COLUMN IF EXISTS type`);

    await db.query(
      `DELETE FROM webhook_attempts WHERE event_id IN (SELECT id FROM events WHERE refund_id IS NOT NULL)`,
    );
    await db.query(`DELETE FROM events WHERE refund_id IS NOT NULL`);
    await db.query(
      `CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS events_one_per_payment_and_type ON events (payment_id, type)`,
    );
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS events_type_list_idx`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS events_one_per_refund_and_type`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS events_one_per_payment_and_type_v2`);
    await db.query(
      `ALTER TABLE events DROP CONSTRAINT IF EXISTS events_refund_id_fkey, DROP COLUMN IF EXISTS refund_id`,
    );

    await db.query(`
      ALTER TABLE payments
        DROP CONSTRAINT IF EXISTS payments_refund_amounts_check,
        DROP COLUMN IF EXISTS refunded_amount,
        DROP COLUMN IF EXISTS refund_held_amount`);
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS refunds_bank_transaction_id_key`);
    await db.query(`DROP TABLE IF EXISTS refunds`);
    await db.query(`ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_id_merchant_livemode_key`);
  }
}

/** `definition` starts after CREATE; an index a failed run left (maybe invalid) is dropped first. */
async function buildConcurrently(db: QueryRunner, name: string, definition: string): Promise<void> {
  await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  await db.query(`CREATE ${definition}`);
}

/**
 * Added NOT VALID (a short lock, no scan), then validated (a scan that lets writes go on). Dropped
 * first in the same statement, so a run that stopped between the two steps can run again.
 */
async function addValidatedConstraint(db: QueryRunner, table: string, name: string, definition: string) {
  await db.query(
    `ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${name}, ADD CONSTRAINT ${name} ${definition} NOT VALID`,
  );
  await db.query(`ALTER TABLE ${table} VALIDATE CONSTRAINT ${name}`);
}
