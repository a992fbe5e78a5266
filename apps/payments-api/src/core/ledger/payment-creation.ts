// No imports but types: bench/run.mjs replays this statement from the build as the database ceiling.
// So its claim spells out the ON CONFLICT rule that idempotency-claims.ts holds for every other claim;
// the idempotency and refunds e2e specs hold each to those rules.
import type { Sql } from '@payhook/persistence';
import type { PaymentRecord } from './payment-record';

/** A payment to create, with the idempotency key it is created under and the answer that key replays. */
export interface NewPayment {
  payment: PaymentRecord;
  idempotencyKey: string;
  fingerprint: string;
  responseBody: string;
  idempotencyTtlHours: number;
  /** The sealed side of `payment.cashReceiptAsked` (CashReceiptAsk), when create asked for a receipt. */
  cashReceiptSecret: { identityNumberSealed: string; testFailure: string | null } | null;
  /** The buyer's address of an escrow payment (`payment.escrow`), kept in the row and never shown. */
  escrowBuyerEmail: string | null;
}

/**
 * Claims the idempotency key of each create in $1 (a JSON array, one record per create) and inserts
 * the payments whose key it got, each with its tax-free part, metadata, cash receipt request and escrow; `RETURNING id`
 * names them (ADR 0001, ADR 0013).
 */
export const CREATE_PAYMENTS_STATEMENT = `
WITH input AS (
  SELECT * FROM json_to_recordset($1::json) AS t(
    id text, merchant_id text, livemode boolean, key text, fingerprint text, response_body text,
    ttl_hours integer, order_id text, customer_id text, amount bigint, currency text, return_url text,
    pay_suffix text, expires_at timestamptz, created_at timestamptz, tax_free_amount bigint, metadata jsonb,
    cash_receipt_type text, cash_receipt_identity_sealed text, cash_receipt_identity_masked text,
    cash_receipt_test_failure text, escrow_buyer_email text)
), claim AS (
  INSERT INTO idempotency_keys AS k
    (merchant_id, livemode, key, fingerprint, response_status, response_body, created_at, expires_at)
  SELECT merchant_id, livemode, key, fingerprint, 201, response_body, now(),
         now() + make_interval(hours => ttl_hours)
  FROM input
  ON CONFLICT (merchant_id, livemode, key) DO UPDATE
    SET fingerprint = EXCLUDED.fingerprint, response_status = EXCLUDED.response_status,
        response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at,
        expires_at = EXCLUDED.expires_at
    WHERE k.expires_at <= now()
  RETURNING merchant_id, livemode, key
)
INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status,
                      return_url, pay_suffix, expires_at, created_at, tax_free_amount, metadata, cash_receipt_type,
                      cash_receipt_identity_sealed, cash_receipt_identity_masked, cash_receipt_test_failure,
                      escrow_status, escrow_buyer_email)
SELECT i.id, i.merchant_id, i.livemode, i.order_id, i.customer_id, i.amount, i.currency, 'pending',
       i.return_url, i.pay_suffix, i.expires_at, i.created_at, i.tax_free_amount, i.metadata, i.cash_receipt_type,
       i.cash_receipt_identity_sealed, i.cash_receipt_identity_masked, i.cash_receipt_test_failure,
       CASE WHEN i.escrow_buyer_email IS NOT NULL THEN 'awaiting_shipment' END, i.escrow_buyer_email
FROM input i JOIN claim c USING (merchant_id, livemode, key)
RETURNING id
`;

/**
 * Claims each payment's idempotency key and inserts the payments whose key it got, all in one
 * statement: a batch of creates costs one round trip and one commit (ADR 0013). A key already held
 * by a running request makes the statement wait on the unique index until that request commits (ADR
 * 0001). Returns the ids of the payments inserted; a payment left out found its key taken and not
 * expired. Any unique violation (an order with an active payment) fails the whole statement:
 * nothing is inserted. A creation moves no state, so it writes no event.
 */
export async function createPayments(sql: Sql, inputs: readonly NewPayment[]): Promise<Set<string>> {
  const rows = await sql<{ id: string }>(
    CREATE_PAYMENTS_STATEMENT,
    [
      JSON.stringify(
        inputs.map(
          ({
            payment: p,
            idempotencyKey,
            fingerprint,
            responseBody,
            idempotencyTtlHours,
            cashReceiptSecret,
            escrowBuyerEmail,
          }) => ({
            id: p.id,
            merchant_id: p.merchantId,
            livemode: p.livemode,
            key: idempotencyKey,
            fingerprint,
            response_body: responseBody,
            ttl_hours: idempotencyTtlHours,
            order_id: p.orderId,
            customer_id: p.customerId,
            amount: p.amount,
            currency: p.currency,
            return_url: p.returnUrl,
            pay_suffix: p.paySuffix,
            expires_at: p.expiresAt,
            created_at: p.createdAt,
            // With the row, in the same statement: the tax-free part and the merchant's keys cost no extra one.
            tax_free_amount: p.taxFreeAmount,
            metadata: p.metadata,
            // Absent keys read as null in json_to_recordset: a create without a receipt sends no more bytes.
            ...(p.cashReceiptAsked && cashReceiptSecret
              ? {
                  cash_receipt_type: p.cashReceiptAsked.type,
                  cash_receipt_identity_sealed: cashReceiptSecret.identityNumberSealed,
                  cash_receipt_identity_masked: p.cashReceiptAsked.identityNumber,
                  cash_receipt_test_failure: cashReceiptSecret.testFailure,
                }
              : {}),
            ...(escrowBuyerEmail ? { escrow_buyer_email: escrowBuyerEmail } : {}),
          }),
        ),
      ),
    ],
    'create-payments',
  );
  return new Set(rows.map((row) => row.id));
}
