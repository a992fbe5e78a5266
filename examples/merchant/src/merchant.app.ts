import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

import {
  PayhookApiError,
  PayhookClient,
  PayhookConnectionError,
  rawJsonBody,
  verifyWebhook,
  WEBHOOK_HEADERS,
  WebhookVerificationError,
  type RequestWithRawBody,
  type WebhookEvent,
} from '@payhook/sdk';
import express, { type NextFunction, type Request, type Response } from 'express';
import { Pool, type PoolClient } from 'pg';

export interface MerchantAppOptions {
  /** Where payhook's API answers, e.g. http://localhost:3000. */
  payhookBaseUrl: string;
  /** A payhook API key, `svc_test_…` while integrating. */
  apiKey: string;
  /** The webhook signing secret (`whsec_…`); a function lets a rotated secret take effect without a restart. */
  webhookSecret: string | (() => string);
  /** This merchant's own Postgres database (it must exist). */
  databaseUrl: string;
  /** Where customers reach this server; the return URL sent to payhook is built from it. */
  publicUrl: string;
  /**
   * The shop staff's token for staff routes (registering an escrow order's shipment), sent as
   * `Authorization: Bearer <token>`. Without one those routes answer 403.
   */
  staffToken?: string;
  /** Where the app writes one line per notable event; console by default. */
  logger?: Pick<Console, 'log' | 'warn' | 'error'>;
}

export interface MerchantApp {
  app: express.Express;
  /** Closes the database pool; close the HTTP server first. */
  close(): Promise<void>;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS orders (
    id text PRIMARY KEY,
    amount bigint NOT NULL CHECK (amount > 0),
    status text NOT NULL DEFAULT 'awaiting_payment',
    payment_id text,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  -- Added with refunds: a database made before them gains it on the next start.
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS refunded_amount bigint NOT NULL DEFAULT 0;
  CREATE TABLE IF NOT EXISTS credited_events (
    event_id text PRIMARY KEY,
    order_id text NOT NULL,
    credited_at timestamptz NOT NULL DEFAULT now()
  );
  -- Added with cash receipts (현금영수증): the order's issue receipt and one cancel receipt per refund, as payhook
  -- reported them. The buyer's number is not kept: the shop never needs it.
  CREATE TABLE IF NOT EXISTS order_cash_receipts (
    receipt_id text PRIMARY KEY,
    order_id text NOT NULL REFERENCES orders (id),
    transaction_type text NOT NULL,
    amount bigint NOT NULL,
    status text NOT NULL,
    issue_number text,
    failure_reason text,
    recorded_at timestamptz NOT NULL DEFAULT now()
  );
  -- Added with escrow (구매안전서비스): an escrow order's escrow as payhook reported it, and its shipment.
  -- NULL escrow_status: an ordinary order.
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS escrow_status text;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS carrier text;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS tracking_number text;
  ALTER TABLE orders ADD COLUMN IF NOT EXISTS escrow_reject_reason text;
`;

const MAX_AMOUNT = 10_000_000_000;
/** payhook's limits: a buyer's e-mail address of 3–254 characters, a carrier and tracking number of 1–64. */
const BUYER_EMAIL_MAX_CHARS = 254;
const SHIPMENT_FIELD_MAX_CHARS = 64;

interface OrderRow {
  id: string;
  amount: string;
  status: 'awaiting_payment' | 'paid' | 'failed' | 'canceled' | 'expired' | 'refunded';
  payment_id: string | null;
  refunded_amount: string;
  escrow_status: 'awaiting_shipment' | 'shipped' | 'confirmed' | 'rejected' | null;
  carrier: string | null;
  tracking_number: string | null;
}

/**
 * What the webhook did: credited the order, marked it failed, canceled or expired, recorded a refund
 * (part of the order, or all of it), recorded a failed refund (the order is unchanged), recorded a cash
 * receipt issued or failed, recorded an escrow confirmed or rejected by the buyer, recorded an event that
 * changed no order, or saw a repeat.
 */
export type CreditOutcome =
  | 'credited'
  | 'marked_failed'
  | 'marked_canceled'
  | 'marked_expired'
  | 'refunded_partially'
  | 'refunded'
  | 'refund_failed'
  | 'receipt_issued'
  | 'receipt_failed'
  | 'escrow_confirmed'
  | 'escrow_rejected'
  | 'not_credited'
  | 'duplicate';

/**
 * A small merchant server built on @payhook/sdk: it sells orders, sends the customer to payhook's payment
 * screen, and marks an order paid when a verified payment.completed webhook arrives (failed, canceled or
 * expired for the other outcomes), records refunds (refund.succeeded), cash receipts (cash_receipt.issued,
 * cash_receipt.failed) and how an escrow order's buyer closed its escrow (escrow.confirmed, escrow.rejected),
 * once per event id. An escrow order's shipment is registered by the shop's staff (POST /orders/{id}/shipment).
 */
export async function createMerchantApp(options: MerchantAppOptions): Promise<MerchantApp> {
  const logger = options.logger ?? console;
  const publicUrl = options.publicUrl.replace(/\/+$/, '');
  const secret = () => (typeof options.webhookSecret === 'function' ? options.webhookSecret() : options.webhookSecret);
  const payhook = new PayhookClient({ apiKey: options.apiKey, baseUrl: options.payhookBaseUrl });

  const pool = new Pool({ connectionString: options.databaseUrl, max: 10 });
  // An idle connection can die (database restart, admin termination); without a listener that error crashes the process.
  pool.on('error', (error) => logger.warn(`database connection lost: ${error.message}`));
  try {
    await pool.query(SCHEMA);
  } catch (error) {
    await pool.end();
    throw error;
  }

  const app = express();
  app.disable('x-powered-by');

  app.get('/', (_req, res) => {
    res.type('html').send(
      page(
        'Example shop',
        `<form method="post" action="/orders">
           <p><label>Amount (KRW) <input name="amount" type="number" min="1" value="15000" required></label></p>
           <p><label>Your e-mail, to pay into escrow (<span lang="ko">구매안전서비스</span>; optional)
             <input name="buyerEmail" type="email" maxlength="${BUYER_EMAIL_MAX_CHARS}" autocomplete="email"></label></p>
           <button type="submit">Pay with payhook</button>
         </form>`,
      ),
    );
  });

  // Orders take ordinary parsed bodies: JSON from scripts, a form from the page above.
  app.post(
    '/orders',
    express.json({ limit: '16kb' }),
    express.urlencoded({ extended: false, limit: '16kb' }),
    async (req: Request, res: Response) => {
      const body: unknown = req.body;
      const amount = parseAmount(isRecord(body) ? body.amount : undefined);
      if (amount === undefined) {
        res.status(400).json({ error: `amount must be a whole number of won from 1 to ${MAX_AMOUNT}` });
        return;
      }
      const customerId =
        isRecord(body) && typeof body.customerId === 'string' && body.customerId !== '' ? body.customerId : 'guest';
      // With the buyer's e-mail the order is paid into escrow: payhook e-mails the buyer at the shipment.
      const buyerEmail = parseBuyerEmail(isRecord(body) ? body.buyerEmail : undefined);
      if (buyerEmail === null) {
        res
          .status(400)
          .json({ error: `buyerEmail must be an e-mail address of 3 to ${BUYER_EMAIL_MAX_CHARS} characters` });
        return;
      }

      // 1. The order exists in our database before payhook hears of it.
      const orderId = `ord_${randomBytes(12).toString('hex')}`;
      await pool.query('INSERT INTO orders (id, amount, escrow_status) VALUES ($1, $2, $3)', [
        orderId,
        amount,
        buyerEmail === undefined ? null : 'awaiting_shipment',
      ]);

      // 2. One payment per order: the key is derived from the order, so any retry replays, never pays twice.
      let payUrl: string;
      try {
        const payment = await payhook.createPayment(
          {
            orderId,
            customerId,
            amount,
            currency: 'KRW',
            returnUrl: `${publicUrl}/orders/${orderId}/return`,
            ...(buyerEmail === undefined ? {} : { escrow: { buyerEmail } }),
          },
          { idempotencyKey: `order-${orderId}` },
        );
        await pool.query('UPDATE orders SET payment_id = $2 WHERE id = $1', [orderId, payment.id]);
        payUrl = payment.payUrl;
      } catch (error) {
        if (!(error instanceof PayhookApiError || error instanceof PayhookConnectionError)) throw error;
        logger.error(`order ${orderId}: creating the payment failed: ${error.message}`);
        res.status(502).json({ error: 'The payment could not be started; please try again.', orderId });
        return;
      }

      // 3. Send the customer to payhook's payment screen (or hand the URL to a script that asked for JSON).
      if (req.accepts(['text/html', 'application/json']) === 'application/json') {
        res.status(201).json({ orderId, payUrl });
      } else {
        res.redirect(303, payUrl);
      }
    },
  );

  // Where payhook sends the customer back. The query (paymentId, status) is only a hint anyone can type:
  // the order is paid when our database says so, and only a verified webhook writes that.
  app.get('/orders/:id/return', async (req: Request<{ id: string }>, res: Response) => {
    const { rows } = await pool.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1`, [req.params.id]);
    const order = rows[0];
    res.set('Cache-Control', 'no-store');
    if (!order) {
      res.status(404).type('html').send(page('Order not found', '<p>We do not know this order.</p>'));
      return;
    }
    const won = (value: string) => `₩${Number(value).toLocaleString('en-US')}`;
    const amount = won(order.amount);
    const partlyRefunded =
      order.refunded_amount !== '0' ? ` ${won(order.refunded_amount)} of it has been refunded.` : '';
    const reported = typeof req.query.status === 'string' ? req.query.status : undefined;
    const body =
      order.status === 'paid'
        ? `<p>Thank you! Order <code>${escapeHtml(order.id)}</code> (${amount}) is <strong>paid</strong>.${partlyRefunded}</p>`
        : order.status === 'refunded'
          ? `<p>Order <code>${escapeHtml(order.id)}</code> (${amount}) was paid and has been <strong>refunded</strong>.</p>`
          : order.status !== 'awaiting_payment'
            ? `<p>Order <code>${escapeHtml(order.id)}</code> (${amount}) was not paid: the payment <strong>${order.status}</strong>.</p>`
            : `<p>Order <code>${escapeHtml(order.id)}</code> (${amount}) is <strong>waiting for payment</strong>.</p>
           ${reported ? `<p>The payment screen reported: ${escapeHtml(reported)}.</p>` : ''}
           <p>This page refreshes until payhook confirms the payment.</p>`;
    const refresh = order.status === 'awaiting_payment' ? '<meta http-equiv="refresh" content="3">' : '';
    res.type('html').send(page(`Order ${order.id}`, body + escrowNote(order) + (await receiptNote(order.id)), refresh));
  });

  // The shop's staff register an escrow order's shipment (again to correct the carrier or tracking number):
  // payhook e-mails the buyer a link to confirm the goods arrived, or to reject them.
  app.post(
    '/orders/:id/shipment',
    express.json({ limit: '16kb' }),
    express.urlencoded({ extended: false, limit: '16kb' }),
    async (req: Request<{ id: string }>, res: Response) => {
      if (!isStaff(req.get('authorization'), options.staffToken)) {
        res.status(403).json({ error: 'staff only: send Authorization: Bearer <MERCHANT_STAFF_TOKEN>' });
        return;
      }
      const body: unknown = req.body;
      const carrier = parseShipmentField(isRecord(body) ? body.carrier : undefined);
      const trackingNumber = parseShipmentField(isRecord(body) ? body.trackingNumber : undefined);
      if (carrier === undefined || trackingNumber === undefined) {
        res
          .status(400)
          .json({ error: `carrier and trackingNumber must each be 1 to ${SHIPMENT_FIELD_MAX_CHARS} characters` });
        return;
      }
      const { rows } = await pool.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1`, [req.params.id]);
      const order = rows[0];
      if (!order) {
        res.status(404).json({ error: 'unknown order' });
        return;
      }
      if (order.escrow_status === null || order.payment_id === null || order.status !== 'paid') {
        res.status(409).json({ error: 'only a paid escrow order ships through payhook' });
        return;
      }
      try {
        const payment = await payhook.shipEscrow(order.payment_id, { carrier, trackingNumber });
        // A confirmation or rejection that arrived meanwhile stays: only an open escrow becomes shipped.
        await pool.query(
          `UPDATE orders SET carrier = $2, tracking_number = $3,
             escrow_status = CASE WHEN escrow_status = 'awaiting_shipment' THEN 'shipped' ELSE escrow_status END
            WHERE id = $1`,
          [order.id, carrier, trackingNumber],
        );
        res.status(200).json({ orderId: order.id, escrow: payment.escrow });
      } catch (error) {
        if (error instanceof PayhookApiError && error.status === 409) {
          // payment_state_conflict (not completed) or escrow_state_conflict (already confirmed or rejected).
          res.status(409).json({ error: error.code });
          return;
        }
        if (!(error instanceof PayhookApiError || error instanceof PayhookConnectionError)) throw error;
        logger.error(`order ${order.id}: registering the shipment failed: ${error.message}`);
        res.status(502).json({ error: 'The shipment could not be registered; please try again.' });
      }
    },
  );

  /** The order's latest issue receipt, as the customer should hear of it: its number, or that it failed. */
  async function receiptNote(orderId: string): Promise<string> {
    const { rows } = await pool.query<{ status: string; issue_number: string | null }>(
      `SELECT status, issue_number FROM order_cash_receipts
        WHERE order_id = $1 AND transaction_type = 'issue' ORDER BY recorded_at DESC LIMIT 1`,
      [orderId],
    );
    const receipt = rows[0];
    if (!receipt) return '';
    return receipt.status === 'issued'
      ? `<p>Cash receipt (<span lang="ko">현금영수증</span>) issued: number <code>${escapeHtml(receipt.issue_number ?? '')}</code>.</p>`
      : '<p>The cash receipt (<span lang="ko">현금영수증</span>) could not be issued; please check the number you gave and ask again.</p>';
  }

  // payhook's webhook. The body is kept as raw bytes (no JSON parser on this route): the signature covers them.
  app.post('/webhooks', rawJsonBody({ limitBytes: 64 * 1024 }), async (req: Request, res: Response) => {
    const { rawBody } = req as Request & RequestWithRawBody;
    let event: WebhookEvent;
    try {
      event = verifyWebhook(rawBody, req.get(WEBHOOK_HEADERS.signature), secret(), {
        eventIdHeader: req.get(WEBHOOK_HEADERS.eventId),
      });
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      // Forged, tampered, stale or malformed: refuse it and credit nothing.
      logger.warn(`webhook refused: ${error.reason}`);
      res.status(400).json({ error: error.reason });
      return;
    }

    const outcome = await creditOnce(pool, event);
    logger.log(`webhook ${event.id} for order ${event.data.orderId}: ${outcome}`);
    if (event.type === 'refund.failed' && outcome === 'refund_failed') {
      // payhook could not send the money back; the amount is refundable again. Someone should look.
      logger.warn(
        `refund ${event.data.refundId} of ₩${event.data.amount} for order ${event.data.orderId} failed at ` +
          `${event.data.failedAt}: refund it again or contact the customer`,
      );
    }
    if (event.type === 'escrow.rejected' && outcome === 'escrow_rejected') {
      // The payout stays held and payhook's operator reviews the case; the shop refunds or settles with the buyer.
      logger.warn(
        `escrow of order ${event.data.orderId} rejected by the buyer at ${event.data.rejectedAt}: ` +
          `"${event.data.rejectReason}"; refund the order or settle it with the customer`,
      );
    }
    if (event.type === 'cash_receipt.failed' && outcome === 'receipt_failed') {
      // No receipt for the buyer; they (or the shop, POST /v1/payments/{id}/cash-receipts) may ask again.
      logger.warn(
        `cash receipt ${event.data.id} for order ${event.data.orderId} failed (${event.data.failureReason}): ` +
          'ask the customer for their number again',
      );
    }
    // 200 for a repeat too: the event is handled, and anything else would only make payhook send it again.
    res.status(200).json({ received: true, outcome });
  });

  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const status = httpStatusOf(error);
    if (status >= 500) logger.error(error);
    // A 5xx to a webhook makes payhook retry it later, which is what we want after a database hiccup.
    res.status(status).json({ error: status >= 500 ? 'internal error' : 'bad request' });
  });

  return { app, close: () => pool.end() };
}

/**
 * Records the event id and applies it to its order, in one transaction. The primary key on event_id makes the
 * insert a no-op for an id already seen, so concurrent or repeated deliveries of one event count at most once.
 */
export async function creditOnce(pool: Pool, event: WebhookEvent): Promise<CreditOutcome> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const inserted = await client.query(
      'INSERT INTO credited_events (event_id, order_id) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING',
      [event.id, event.data.orderId],
    );
    let outcome: CreditOutcome = 'duplicate';
    if (inserted.rowCount === 1) outcome = await applyEvent(client, event);
    await client.query('COMMIT');
    return outcome;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** One event's change to its order; `switch (event.type)` narrows `event.data` to that outcome. */
async function applyEvent(client: PoolClient, event: WebhookEvent): Promise<CreditOutcome> {
  switch (event.type) {
    case 'payment.completed': {
      // Only the amount we asked for pays the order; an order already paid stays paid once.
      const paid = await client.query(
        `UPDATE orders SET status = 'paid', payment_id = $2
          WHERE id = $1 AND amount = $3 AND status <> 'paid'`,
        [event.data.orderId, event.data.paymentId, event.data.amount],
      );
      return paid.rowCount === 1 ? 'credited' : 'not_credited';
    }
    case 'payment.failed':
    case 'payment.canceled':
    case 'payment.expired': {
      // An order paid by another payment stays paid; only one still waiting takes the outcome.
      const marked = await client.query(
        `UPDATE orders SET status = $2, payment_id = $3 WHERE id = $1 AND status = 'awaiting_payment'`,
        [event.data.orderId, event.data.status, event.data.paymentId],
      );
      return marked.rowCount === 1 ? `marked_${event.data.status}` : 'not_credited';
    }
    case 'refund.succeeded': {
      // Only the payment that paid the order is refunded; the order is `refunded` once all of it is back.
      const refunded = await client.query<{ status: OrderRow['status'] }>(
        `UPDATE orders SET refunded_amount = refunded_amount + $3,
           status = CASE WHEN refunded_amount + $3 >= amount THEN 'refunded' ELSE status END
          WHERE id = $1 AND payment_id = $2 AND status = 'paid' AND refunded_amount + $3 <= amount
          RETURNING status`,
        [event.data.orderId, event.data.paymentId, event.data.amount],
      );
      if (refunded.rowCount !== 1) return 'not_credited';
      return refunded.rows[0].status === 'refunded' ? 'refunded' : 'refunded_partially';
    }
    case 'refund.failed':
      // Nothing left the shop's books: the order stays as it was (the handler logs it for a person).
      return 'refund_failed';
    case 'cash_receipt.issued':
    case 'cash_receipt.failed': {
      // The receipt of the payment that paid the order (its issue receipt, or a refund's cancel receipt).
      const { data } = event;
      const recorded = await client.query(
        `INSERT INTO order_cash_receipts (receipt_id, order_id, transaction_type, amount, status, issue_number,
                                          failure_reason)
         SELECT $1, id, $4, $5, $6, $7, $8 FROM orders WHERE id = $2 AND payment_id = $3
         ON CONFLICT (receipt_id) DO NOTHING`,
        [
          data.id,
          data.orderId,
          data.paymentId,
          data.transactionType,
          data.amount,
          data.status,
          data.issueNumber,
          data.failureReason,
        ],
      );
      return recorded.rowCount === 1 ? `receipt_${data.status}` : 'not_credited';
    }
    case 'escrow.confirmed':
    case 'escrow.rejected': {
      // The escrow of the payment that paid the order: confirmed (the payout is scheduled) or rejected (held).
      const { data } = event;
      const closed = await client.query(
        `UPDATE orders SET escrow_status = $3, escrow_reject_reason = $4
          WHERE id = $1 AND payment_id = $2 AND escrow_status IN ('awaiting_shipment', 'shipped')`,
        [data.orderId, data.paymentId, data.status, data.rejectReason],
      );
      return closed.rowCount === 1 ? `escrow_${data.status}` : 'not_credited';
    }
  }
}

const ORDER_COLUMNS = 'id, amount, status, payment_id, refunded_amount, escrow_status, carrier, tracking_number';

/** What the customer should know of an escrow order's escrow; nothing for an ordinary order. */
function escrowNote(order: OrderRow): string {
  const escrow = '<span lang="ko">구매안전서비스</span>';
  switch (order.escrow_status) {
    case null:
      return '';
    case 'awaiting_shipment':
      return `<p>Paid into escrow (${escrow}): when we ship, payhook e-mails you a link to confirm the goods arrived.</p>`;
    case 'shipped':
      return (
        `<p>Shipped with ${escapeHtml(order.carrier ?? '')}, tracking number <code>${escapeHtml(order.tracking_number ?? '')}</code>. ` +
        'When the goods arrive, confirm them through the link payhook e-mailed you (or reject them, saying why).</p>'
      );
    case 'confirmed':
      return `<p>You confirmed the goods arrived: the escrow (${escrow}) is closed.</p>`;
    case 'rejected':
      return '<p>You rejected the goods: we will contact you about a refund.</p>';
  }
}

/** undefined: no escrow asked (absent or blank, as an empty form field sends it); null: not an address. */
function parseBuyerEmail(value: unknown): string | undefined | null {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.length < 3 || value.length > BUYER_EMAIL_MAX_CHARS) return null;
  return /^[^\s@]+@[^\s@]+$/.test(value) ? value : null;
}

function parseShipmentField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && [...value].length <= SHIPMENT_FIELD_MAX_CHARS
    ? value
    : undefined;
}

/** Compared as digests, in constant time: the header's length tells nothing about the token's. */
function isStaff(authorization: string | undefined, staffToken: string | undefined): boolean {
  if (!staffToken || authorization === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(authorization), digest(`Bearer ${staffToken}`));
}

function parseAmount(value: unknown): number | undefined {
  const amount = typeof value === 'string' && /^\d{1,11}$/.test(value) ? Number(value) : value;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT) {
    return undefined;
  }
  return amount;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function httpStatusOf(error: unknown): number {
  const status = isRecord(error) ? (error.status ?? error.statusCode) : undefined;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${head}
<title>${escapeHtml(title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem">
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}
