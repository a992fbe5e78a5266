import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import { type AddressInfo } from 'node:net';

import {
  newId,
  type CashReceiptEvent,
  type CashReceiptView,
  type EscrowEvent,
  type PaymentCompletedEvent,
  type PaymentView,
  type RefundEvent,
  type WebhookEvent,
} from '@payhook/contracts';
import { signWebhook } from '@payhook/signing';
import { Client } from 'pg';
import request from 'supertest';

import { POSTGRES_URL } from '../../../test/support/test-env';
import { createMerchantApp, type MerchantApp } from './merchant.app';

const SECRET = 'whsec_example_merchant_test';
const STAFF_TOKEN = 'staff-token-for-tests';
const PUBLIC_URL = 'http://shop.example';
const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };

interface PaymentRequest {
  headers: IncomingHttpHeaders;
  body: {
    orderId: string;
    customerId: string;
    amount: number;
    currency: string;
    returnUrl: string;
    escrow?: { buyerEmail: string };
  };
}

interface ShipmentRequest {
  paymentId: string;
  body: { carrier: string; trackingNumber: string };
}

const SHIPMENT_PATH = /^\/v1\/payments\/(pay_[0-9A-Za-z]+)\/escrow\/shipment$/;

/**
 * Plays payhook's POST /v1/payments and POST /v1/payments/{id}/escrow/shipment: records what it was sent and
 * answers like the real API.
 */
class FakePayhook {
  readonly requests: PaymentRequest[] = [];
  readonly shipments: ShipmentRequest[] = [];
  /** Set to make the next create answer with this error instead. */
  failNext: { status: number; code: string } | undefined;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const shipment = SHIPMENT_PATH.exec(req.url ?? '');
        if (req.method !== 'POST' || (req.url !== '/v1/payments' && !shipment)) {
          res.writeHead(404).end();
          return;
        }
        const failure = this.failNext;
        this.failNext = undefined;
        res.setHeader('Content-Type', 'application/json');
        if (!failure && shipment) {
          const body = JSON.parse(raw) as ShipmentRequest['body'];
          this.shipments.push({ paymentId: shipment[1], body });
          res.writeHead(200).end(JSON.stringify({ data: shippedPayment(shipment[1], body) }));
          return;
        }
        if (!shipment) {
          this.requests.push({ headers: req.headers, body: JSON.parse(raw) as PaymentRequest['body'] });
        }
        if (failure) {
          res.writeHead(failure.status).end(
            JSON.stringify({
              error: { type: 'invalid_request_error', code: failure.code, message: 'no', requestId: 'req_1' },
            }),
          );
          return;
        }
        const body = this.requests.at(-1)!.body;
        const id = newId('payment');
        res.writeHead(201).end(
          JSON.stringify({
            data: {
              id,
              orderId: body.orderId,
              amount: body.amount,
              currency: 'KRW',
              status: 'pending',
              payUrl: `http://pay.example/p/${id.slice(4)}`,
              expiresAt: new Date(Date.now() + 1_800_000).toISOString(),
            },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The payment as the shipment answers it: completed, its escrow shipped. */
function shippedPayment(id: string, shipment: ShipmentRequest['body']): PaymentView {
  const now = new Date().toISOString();
  return {
    id,
    orderId: 'ord_fake',
    amount: 39000,
    currency: 'KRW',
    status: 'completed',
    payUrl: `http://pay.example/p/${id.slice(4)}`,
    expiresAt: now,
    createdAt: now,
    completedAt: now,
    livemode: false,
    refundedAmount: 0,
    taxFreeAmount: 0,
    vat: 3545,
    suppliedAmount: 35455,
    metadata: {},
    escrow: {
      status: 'shipped',
      ...shipment,
      shippedAt: now,
      autoConfirmAt: now,
      confirmedAt: null,
      rejectedAt: null,
      rejectReason: null,
    },
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withDatabase(POSTGRES_URL, 'postgres') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function eventFor(order: { orderId: string; paymentId: string; amount: number }): PaymentCompletedEvent {
  const now = new Date().toISOString();
  return {
    id: newId('event'),
    type: 'payment.completed',
    createdAt: now,
    data: {
      paymentId: order.paymentId,
      orderId: order.orderId,
      amount: order.amount,
      currency: 'KRW',
      completedAt: now,
    },
  };
}

function refundEventFor(
  order: { orderId: string; paymentId: string },
  amount: number,
  outcome: 'succeeded' | 'failed' = 'succeeded',
): RefundEvent {
  const now = new Date().toISOString();
  const data = {
    refundId: newId('refund'),
    paymentId: order.paymentId,
    orderId: order.orderId,
    amount,
    currency: 'KRW' as const,
    reason: 'customer returned it',
  };
  const id = newId('event');
  return outcome === 'succeeded'
    ? { id, type: 'refund.succeeded', createdAt: now, data: { ...data, status: 'succeeded', succeededAt: now } }
    : { id, type: 'refund.failed', createdAt: now, data: { ...data, status: 'failed', failedAt: now } };
}

/** How a buyer closed an escrow, as payhook announces it. */
function escrowEventFor(
  order: { orderId: string; paymentId: string; amount: number },
  outcome: 'confirmed' | 'rejected',
): EscrowEvent {
  const now = new Date().toISOString();
  const data = {
    paymentId: order.paymentId,
    orderId: order.orderId,
    amount: order.amount,
    currency: 'KRW' as const,
  };
  const id = newId('event');
  return outcome === 'confirmed'
    ? {
        id,
        type: 'escrow.confirmed',
        createdAt: now,
        data: {
          ...data,
          status: 'confirmed',
          confirmedAt: now,
          rejectedAt: null,
          rejectReason: null,
          autoConfirmed: false,
        },
      }
    : {
        id,
        type: 'escrow.rejected',
        createdAt: now,
        data: {
          ...data,
          status: 'rejected',
          confirmedAt: null,
          rejectedAt: now,
          rejectReason: '상품이 파손되어 도착했습니다.',
          autoConfirmed: null,
        },
      };
}

/** A test receipt as payhook announces it: issued at once, or failed for the failing test number. */
function receiptEventFor(
  order: { orderId: string; paymentId: string; amount: number },
  outcome: 'issued' | 'failed',
  cancelOf?: { refundId: string; amount: number },
): CashReceiptEvent {
  const now = new Date().toISOString();
  const amount = cancelOf?.amount ?? order.amount;
  const vat = Math.floor((amount + 5) / 11);
  const receipt: CashReceiptView = {
    id: newId('cashReceipt'),
    paymentId: order.paymentId,
    refundId: cancelOf?.refundId ?? null,
    orderId: order.orderId,
    transactionType: cancelOf ? 'cancel' : 'issue',
    type: 'income_deduction',
    identityNumber: '*******5678',
    selfIssued: false,
    amount,
    taxFreeAmount: 0,
    vat,
    suppliedAmount: amount - vat,
    status: 'pending',
    issueNumber: null,
    failureReason: null,
    livemode: false,
    createdAt: now,
    issuedAt: null,
    failedAt: null,
  };
  const id = newId('event');
  return outcome === 'issued'
    ? {
        id,
        type: 'cash_receipt.issued',
        createdAt: now,
        data: { ...receipt, status: 'issued', issueNumber: '417203958', issuedAt: now },
      }
    : {
        id,
        type: 'cash_receipt.failed',
        createdAt: now,
        data: { ...receipt, status: 'failed', failureReason: 'identity_rejected', failedAt: now },
      };
}

describe('example merchant (createMerchantApp)', () => {
  const databaseName = `example_merchant_${randomBytes(4).toString('hex')}_test`;
  const databaseUrl = withDatabase(POSTGRES_URL, databaseName);
  const payhook = new FakePayhook();
  let merchant: MerchantApp;
  let db: Client;

  beforeAll(async () => {
    await admin((client) => client.query(`CREATE DATABASE "${databaseName}"`));
    const payhookBaseUrl = await payhook.start();
    merchant = await createMerchantApp({
      payhookBaseUrl,
      apiKey: 'svc_test_example',
      webhookSecret: () => SECRET,
      databaseUrl,
      publicUrl: `${PUBLIC_URL}/`,
      staffToken: STAFF_TOKEN,
      logger: silent,
    });
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await merchant?.close();
    await payhook.stop();
    await admin((client) => client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`));
  });

  async function placeOrder(amount = 15000) {
    const res = await request(merchant.app).post('/orders').send({ amount }).expect(303);
    const created = payhook.requests.at(-1);
    if (!created) throw new Error('no payment was created');
    const { rows } = await db.query<{ payment_id: string }>('SELECT payment_id FROM orders WHERE id = $1', [
      created.body.orderId,
    ]);
    return { res, created, orderId: created.body.orderId, paymentId: rows[0].payment_id, amount };
  }

  function deliver(body: string, headers: { signature?: string; eventId?: string }) {
    const req = request(merchant.app).post('/webhooks').set('Content-Type', 'application/json');
    if (headers.signature !== undefined) req.set('Service-Signature', headers.signature);
    if (headers.eventId !== undefined) req.set('Service-Event-Id', headers.eventId);
    return req.send(body);
  }

  function deliverSigned(event: WebhookEvent, t = Math.floor(Date.now() / 1000)) {
    const body = JSON.stringify(event);
    return deliver(body, { signature: signWebhook(SECRET, body, t), eventId: event.id });
  }

  async function orderStatus(orderId: string): Promise<string> {
    const { rows } = await db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [orderId]);
    return rows[0].status;
  }

  async function creditedRows(eventId: string): Promise<number> {
    const { rows } = await db.query('SELECT 1 FROM credited_events WHERE event_id = $1', [eventId]);
    return rows.length;
  }

  describe('POST /orders', () => {
    it('creates the order and a payment for it, and sends the customer to payUrl with 303', async () => {
      const { res, created, orderId, paymentId } = await placeOrder(15000);
      expect(res.headers.location).toMatch(/^http:\/\/pay\.example\/p\//);
      expect(paymentId).toMatch(/^pay_/);
      expect(created.body).toEqual({
        orderId,
        customerId: 'guest',
        amount: 15000,
        currency: 'KRW',
        returnUrl: `${PUBLIC_URL}/orders/${orderId}/return`,
      });
      expect(created.headers.authorization).toBe('Bearer svc_test_example');
      expect(created.headers['idempotency-key']).toBe(`order-${orderId}`);
      await expect(orderStatus(orderId)).resolves.toBe('awaiting_payment');
    });

    it('answers JSON {orderId, payUrl} when asked for JSON', async () => {
      const res = await request(merchant.app)
        .post('/orders')
        .set('Accept', 'application/json')
        .send({ amount: 2500, customerId: 'customer-7' })
        .expect(201);
      const created = payhook.requests.at(-1);
      expect(res.body).toEqual({ orderId: created?.body.orderId, payUrl: expect.stringMatching(/^http:\/\/pay/) });
      expect(created?.body.customerId).toBe('customer-7');
    });

    it('takes a form post from the shop page', async () => {
      await request(merchant.app).post('/orders').type('form').send('amount=700').expect(303);
      expect(payhook.requests.at(-1)?.body.amount).toBe(700);
    });

    it.each([[0], [-5], [1.5], ['15000x'], [null], [10_000_000_001]])('refuses amount %p with 400', async (amount) => {
      const before = payhook.requests.length;
      await request(merchant.app).post('/orders').send({ amount }).expect(400);
      expect(payhook.requests).toHaveLength(before);
    });

    it('answers 502 when payhook refuses the payment, without retrying a 4xx', async () => {
      const before = payhook.requests.length;
      payhook.failNext = { status: 400, code: 'parameter_invalid' };
      await request(merchant.app).post('/orders').send({ amount: 100 }).expect(502);
      expect(payhook.requests).toHaveLength(before + 1);
    });
  });

  describe('POST /webhooks', () => {
    it('credits a correctly signed payment.completed once', async () => {
      const order = await placeOrder(15000);
      const event = eventFor(order);
      const res = await deliverSigned(event).expect(200);
      expect(res.body).toMatchObject({ outcome: 'credited' });
      await expect(orderStatus(order.orderId)).resolves.toBe('paid');
      await expect(creditedRows(event.id)).resolves.toBe(1);
    });

    it('answers 200 to the same event again (a retry, fresh signature) and credits nothing more', async () => {
      const order = await placeOrder(9000);
      const event = eventFor(order);
      await deliverSigned(event).expect(200);
      const again = await deliverSigned(event, Math.floor(Date.now() / 1000) + 1).expect(200);
      expect(again.body).toMatchObject({ outcome: 'duplicate' });
      await expect(creditedRows(event.id)).resolves.toBe(1);
      await expect(orderStatus(order.orderId)).resolves.toBe('paid');
    });

    it('answers 200 to both of two simultaneous deliveries of one event, and credits once', async () => {
      const order = await placeOrder(4000);
      const event = eventFor(order);
      const answers = await Promise.all([deliverSigned(event), deliverSigned(event), deliverSigned(event)]);
      expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
      expect(answers.map((res) => (res.body as { outcome: string }).outcome).sort()).toEqual([
        'credited',
        'duplicate',
        'duplicate',
      ]);
      await expect(creditedRows(event.id)).resolves.toBe(1);
    });

    it('refuses a bad signature with 400 and credits nothing', async () => {
      const order = await placeOrder(12000);
      const event = eventFor(order);
      const body = JSON.stringify(event);
      const t = Math.floor(Date.now() / 1000);
      await deliver(body, { signature: signWebhook('whsec_someone_else', body, t), eventId: event.id }).expect(400);
      await expect(creditedRows(event.id)).resolves.toBe(0);
      await expect(orderStatus(order.orderId)).resolves.toBe('awaiting_payment');
    });

    it('refuses a tampered body (signed for another amount) with 400', async () => {
      const order = await placeOrder(12000);
      const event = eventFor(order);
      const signed = JSON.stringify({ ...event, data: { ...event.data, amount: 1 } });
      const header = signWebhook(SECRET, signed);
      await deliver(JSON.stringify(event), { signature: header, eventId: event.id }).expect(400);
      await expect(creditedRows(event.id)).resolves.toBe(0);
    });

    it('refuses a stale timestamp (a valid HMAC, 10 minutes old) with 400', async () => {
      const order = await placeOrder(13000);
      const event = eventFor(order);
      const res = await deliverSigned(event, Math.floor(Date.now() / 1000) - 600).expect(400);
      expect(res.body).toEqual({ error: 'timestamp_out_of_tolerance' });
      await expect(creditedRows(event.id)).resolves.toBe(0);
      await expect(orderStatus(order.orderId)).resolves.toBe('awaiting_payment');
    });

    describe('refuses the malformed headers of the review scenario with 400', () => {
      it.each([
        ['missing', () => undefined],
        ['v1=…,t=… order', (t: number, v1: string) => `v1=${v1},t=${t}`],
        ['uppercase hex', (t: number, v1: string) => `t=${t},v1=${v1.toUpperCase()}`],
        ['a space after the comma', (t: number, v1: string) => `t=${t}, v1=${v1}`],
        ['no v1', (t: number) => `t=${t}`],
      ])('%s', async (_case, build: (t: number, v1: string) => string | undefined) => {
        const order = await placeOrder(3000);
        const event = eventFor(order);
        const body = JSON.stringify(event);
        const t = Math.floor(Date.now() / 1000);
        const v1 = signWebhook(SECRET, body, t).split('v1=')[1];
        await deliver(body, { signature: build(t, v1), eventId: event.id }).expect(400);
        await expect(creditedRows(event.id)).resolves.toBe(0);
      });
    });

    it('refuses a Service-Event-Id that differs from the body id', async () => {
      const order = await placeOrder(3000);
      const event = eventFor(order);
      const body = JSON.stringify(event);
      await deliver(body, { signature: signWebhook(SECRET, body), eventId: newId('event') }).expect(400);
      await expect(creditedRows(event.id)).resolves.toBe(0);
    });

    it('answers 200 to an event for an order it does not know (the integration test pays its own orders)', async () => {
      const event = eventFor({ orderId: 'itest-order-1', paymentId: newId('payment'), amount: 1000 });
      const res = await deliverSigned(event).expect(200);
      expect(res.body).toMatchObject({ outcome: 'not_credited' });
      await expect(creditedRows(event.id)).resolves.toBe(1);
    });

    it('does not mark an order paid for another amount', async () => {
      const order = await placeOrder(50000);
      const res = await deliverSigned(eventFor({ ...order, amount: 500 })).expect(200);
      expect(res.body).toMatchObject({ outcome: 'not_credited' });
      await expect(orderStatus(order.orderId)).resolves.toBe('awaiting_payment');
    });

    it('answers 413 to a body over 64 KiB', async () => {
      const body = JSON.stringify({ padding: 'x'.repeat(70_000) });
      await deliver(body, { signature: signWebhook(SECRET, body) }).expect(413);
    });

    it('answers 413 to a chunked body (no Content-Length) that grows past 64 KiB', async () => {
      const server = merchant.app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const { port } = server.address() as AddressInfo;
        const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/webhooks' });
        req.setHeader('Content-Type', 'application/json');
        req.setHeader('Service-Signature', signWebhook(SECRET, 'x'));
        for (let i = 0; i < 4; i++) req.write('x'.repeat(30_000));
        req.end();
        const [res] = (await once(req, 'response')) as [IncomingMessage];
        res.resume();
        expect(req.getHeader('content-length')).toBeUndefined();
        expect(res.statusCode).toBe(413);
      } finally {
        server.close();
      }
    });
  });

  describe('refund events', () => {
    async function paidOrder(amount: number) {
      const order = await placeOrder(amount);
      await deliverSigned(eventFor(order)).expect(200);
      return order;
    }

    async function refundedAmount(orderId: string): Promise<string> {
      const { rows } = await db.query<{ refunded_amount: string }>('SELECT refunded_amount FROM orders WHERE id = $1', [
        orderId,
      ]);
      return rows[0].refunded_amount;
    }

    it('records a partial refund on a paid order, and marks it refunded when all of it is back', async () => {
      const order = await paidOrder(10000);
      const first = refundEventFor(order, 4000);
      expect((await deliverSigned(first).expect(200)).body).toMatchObject({ outcome: 'refunded_partially' });
      await expect(orderStatus(order.orderId)).resolves.toBe('paid');
      await expect(refundedAmount(order.orderId)).resolves.toBe('4000');
      const page = await request(merchant.app).get(`/orders/${order.orderId}/return`).expect(200);
      expect(page.text).toContain('₩4,000 of it has been refunded');

      expect((await deliverSigned(first).expect(200)).body).toMatchObject({ outcome: 'duplicate' });
      await expect(refundedAmount(order.orderId)).resolves.toBe('4000');

      const rest = refundEventFor(order, 6000);
      expect((await deliverSigned(rest).expect(200)).body).toMatchObject({ outcome: 'refunded' });
      await expect(orderStatus(order.orderId)).resolves.toBe('refunded');
      await expect(refundedAmount(order.orderId)).resolves.toBe('10000');
      const refunded = await request(merchant.app).get(`/orders/${order.orderId}/return`).expect(200);
      expect(refunded.text).toContain('<strong>refunded</strong>');
    });

    it('refunds nothing for another payment or beyond the order amount', async () => {
      const order = await paidOrder(5000);
      const otherPayment = refundEventFor({ ...order, paymentId: newId('payment') }, 1000);
      expect((await deliverSigned(otherPayment).expect(200)).body).toMatchObject({ outcome: 'not_credited' });
      const tooMuch = refundEventFor(order, 5001);
      expect((await deliverSigned(tooMuch).expect(200)).body).toMatchObject({ outcome: 'not_credited' });
      await expect(refundedAmount(order.orderId)).resolves.toBe('0');
      await expect(orderStatus(order.orderId)).resolves.toBe('paid');
    });

    it('logs a failed refund and leaves the order as it was', async () => {
      const warnings: string[] = [];
      const logging = await createMerchantApp({
        payhookBaseUrl: 'http://127.0.0.1:9',
        apiKey: 'svc_test_example',
        webhookSecret: SECRET,
        databaseUrl,
        publicUrl: PUBLIC_URL,
        logger: { ...silent, warn: (line: string) => warnings.push(line) },
      });
      try {
        const order = await paidOrder(3000);
        const failed = refundEventFor(order, 3000, 'failed');
        const body = JSON.stringify(failed);
        const res = await request(logging.app)
          .post('/webhooks')
          .set('Content-Type', 'application/json')
          .set('Service-Signature', signWebhook(SECRET, body))
          .set('Service-Event-Id', failed.id)
          .send(body)
          .expect(200);
        expect(res.body).toMatchObject({ outcome: 'refund_failed' });
        expect(warnings).toEqual([expect.stringContaining(`refund ${failed.data.refundId}`)]);
        await expect(orderStatus(order.orderId)).resolves.toBe('paid');
        await expect(refundedAmount(order.orderId)).resolves.toBe('0');
      } finally {
        await logging.close();
      }
    });
  });

  describe('cash receipt events', () => {
    async function paidOrder(amount: number) {
      const order = await placeOrder(amount);
      await deliverSigned(eventFor(order)).expect(200);
      return order;
    }

    async function receiptsOf(orderId: string) {
      const { rows } = await db.query(
        `SELECT receipt_id, transaction_type, amount, status, issue_number, failure_reason
           FROM order_cash_receipts WHERE order_id = $1 ORDER BY recorded_at, receipt_id`,
        [orderId],
      );
      return rows;
    }

    it('records an issued receipt on its order once, and the return page shows its number', async () => {
      const order = await paidOrder(15000);
      const issued = receiptEventFor(order, 'issued');
      expect((await deliverSigned(issued).expect(200)).body).toMatchObject({ outcome: 'receipt_issued' });
      expect((await deliverSigned(issued).expect(200)).body).toMatchObject({ outcome: 'duplicate' });
      await expect(receiptsOf(order.orderId)).resolves.toEqual([
        {
          receipt_id: issued.data.id,
          transaction_type: 'issue',
          amount: '15000',
          status: 'issued',
          issue_number: '417203958',
          failure_reason: null,
        },
      ]);
      await expect(creditedRows(issued.id)).resolves.toBe(1);
      await expect(orderStatus(order.orderId)).resolves.toBe('paid');
      const page = await request(merchant.app).get(`/orders/${order.orderId}/return`).expect(200);
      expect(page.text).toContain('issued: number <code>417203958</code>');
    });

    it("records a refund's cancel receipt beside the issue receipt", async () => {
      const order = await paidOrder(10000);
      await deliverSigned(receiptEventFor(order, 'issued')).expect(200);
      const refund = refundEventFor(order, 4000);
      await deliverSigned(refund).expect(200);
      const cancel = receiptEventFor(order, 'issued', { refundId: refund.data.refundId, amount: 4000 });
      expect((await deliverSigned(cancel).expect(200)).body).toMatchObject({ outcome: 'receipt_issued' });
      const receipts = await receiptsOf(order.orderId);
      expect(receipts.map((row) => [row.transaction_type, row.amount])).toEqual(
        expect.arrayContaining([
          ['issue', '10000'],
          ['cancel', '4000'],
        ]),
      );
      expect(receipts).toHaveLength(2);
    });

    it('records a failed receipt, logs it for a person without the buyer number, and tells the customer', async () => {
      const warnings: string[] = [];
      const logging = await createMerchantApp({
        payhookBaseUrl: 'http://127.0.0.1:9',
        apiKey: 'svc_test_example',
        webhookSecret: SECRET,
        databaseUrl,
        publicUrl: PUBLIC_URL,
        logger: { ...silent, warn: (line: string) => warnings.push(line) },
      });
      try {
        const order = await paidOrder(20000);
        const failed = receiptEventFor(order, 'failed');
        const body = JSON.stringify(failed);
        const res = await request(logging.app)
          .post('/webhooks')
          .set('Content-Type', 'application/json')
          .set('Service-Signature', signWebhook(SECRET, body))
          .set('Service-Event-Id', failed.id)
          .send(body)
          .expect(200);
        expect(res.body).toMatchObject({ outcome: 'receipt_failed' });
        expect(warnings).toEqual([
          expect.stringContaining(
            `cash receipt ${failed.data.id} for order ${order.orderId} failed (identity_rejected)`,
          ),
        ]);
        expect(warnings.join('\n')).not.toContain('5678');
        await expect(receiptsOf(order.orderId)).resolves.toEqual([
          expect.objectContaining({ status: 'failed', issue_number: null, failure_reason: 'identity_rejected' }),
        ]);
        const page = await request(logging.app).get(`/orders/${order.orderId}/return`).expect(200);
        expect(page.text).toContain('could not be issued');
        expect(page.text).toContain('<strong>paid</strong>');
      } finally {
        await logging.close();
      }
    });

    it("records nothing for another payment's receipt or an order it does not know", async () => {
      const order = await paidOrder(8000);
      const otherPayment = receiptEventFor({ ...order, paymentId: newId('payment') }, 'issued');
      expect((await deliverSigned(otherPayment).expect(200)).body).toMatchObject({ outcome: 'not_credited' });
      const unknown = receiptEventFor({ ...order, orderId: 'itest-order-9' }, 'issued');
      expect((await deliverSigned(unknown).expect(200)).body).toMatchObject({ outcome: 'not_credited' });
      await expect(receiptsOf(order.orderId)).resolves.toEqual([]);
      const page = await request(merchant.app).get(`/orders/${order.orderId}/return`).expect(200);
      expect(page.text).not.toContain('receipt');
    });
  });

  describe('escrow orders', () => {
    async function paidEscrowOrder(amount = 39000) {
      await request(merchant.app).post('/orders').send({ amount, buyerEmail: 'buyer@example.com' }).expect(303);
      const created = payhook.requests.at(-1)!;
      const { rows } = await db.query<{ payment_id: string }>('SELECT payment_id FROM orders WHERE id = $1', [
        created.body.orderId,
      ]);
      const order = { orderId: created.body.orderId, paymentId: rows[0].payment_id, amount };
      await deliverSigned(eventFor(order)).expect(200);
      return { ...order, created };
    }

    const ship = (orderId: string, body: object, token: string | null = STAFF_TOKEN) => {
      const req = request(merchant.app).post(`/orders/${orderId}/shipment`);
      if (token !== null) req.set('Authorization', `Bearer ${token}`);
      return req.send(body);
    };
    const shipment = { carrier: 'CJ대한통운', trackingNumber: '6901-2345-6789' };

    async function escrowOf(orderId: string) {
      const { rows } = await db.query(
        'SELECT escrow_status, carrier, tracking_number, escrow_reject_reason FROM orders WHERE id = $1',
        [orderId],
      );
      return rows[0];
    }

    it("creates an escrow payment with the buyer's e-mail, from JSON or the shop page's form", async () => {
      const order = await paidEscrowOrder();
      expect(order.created.body.escrow).toEqual({ buyerEmail: 'buyer@example.com' });
      await expect(escrowOf(order.orderId)).resolves.toMatchObject({ escrow_status: 'awaiting_shipment' });
      const page = await request(merchant.app).get(`/orders/${order.orderId}/return`).expect(200);
      expect(page.text).toContain('Paid into escrow');

      await request(merchant.app)
        .post('/orders')
        .type('form')
        .send('amount=700&buyerEmail=buyer%40example.com')
        .expect(303);
      expect(payhook.requests.at(-1)?.body.escrow).toEqual({ buyerEmail: 'buyer@example.com' });
      // The shop page's empty field asks for no escrow.
      await request(merchant.app).post('/orders').type('form').send('amount=700&buyerEmail=').expect(303);
      expect(payhook.requests.at(-1)?.body).not.toHaveProperty('escrow');
    });

    it.each([['not-an-address'], ['a@'], [42], [`${'a'.repeat(250)}@b.kr`]])(
      'refuses buyerEmail %p with 400 and creates nothing',
      async (buyerEmail) => {
        const before = payhook.requests.length;
        await request(merchant.app).post('/orders').send({ amount: 1000, buyerEmail }).expect(400);
        expect(payhook.requests).toHaveLength(before);
      },
    );

    it('registers the shipment of a paid escrow order with payhook, and the return page shows it', async () => {
      const order = await paidEscrowOrder();
      const res = await ship(order.orderId, shipment).expect(200);
      expect(payhook.shipments.at(-1)).toEqual({ paymentId: order.paymentId, body: shipment });
      expect(res.body).toMatchObject({ orderId: order.orderId, escrow: { status: 'shipped', ...shipment } });
      await expect(escrowOf(order.orderId)).resolves.toMatchObject({
        escrow_status: 'shipped',
        carrier: 'CJ대한통운',
        tracking_number: '6901-2345-6789',
      });
      const page = await request(merchant.app).get(`/orders/${order.orderId}/return`).expect(200);
      expect(page.text).toContain('Shipped with CJ대한통운, tracking number <code>6901-2345-6789</code>');
    });

    it('refuses a shipment without the staff token, of bad fields, of an order that is not a paid escrow order', async () => {
      const order = await paidEscrowOrder();
      const before = payhook.shipments.length;
      await ship(order.orderId, shipment, null).expect(403);
      await ship(order.orderId, shipment, 'guessed').expect(403);
      await ship(order.orderId, { carrier: '', trackingNumber: '1' }).expect(400);
      await ship(order.orderId, { carrier: 'CJ', trackingNumber: 'x'.repeat(65) }).expect(400);
      await ship('ord_unknown', shipment).expect(404);
      const ordinary = await placeOrder(1000);
      await deliverSigned(eventFor(ordinary)).expect(200);
      await ship(ordinary.orderId, shipment).expect(409);
      await request(merchant.app).post('/orders').send({ amount: 1000, buyerEmail: 'b@example.com' }).expect(303);
      await ship(payhook.requests.at(-1)!.body.orderId, shipment).expect(409);
      expect(payhook.shipments).toHaveLength(before);
    });

    it("answers payhook's 409 escrow_state_conflict as its code", async () => {
      const order = await paidEscrowOrder();
      payhook.failNext = { status: 409, code: 'escrow_state_conflict' };
      expect((await ship(order.orderId, shipment).expect(409)).body).toEqual({ error: 'escrow_state_conflict' });
    });

    it('records a confirmation once; the return page says so', async () => {
      const order = await paidEscrowOrder();
      await ship(order.orderId, shipment).expect(200);
      const confirmed = escrowEventFor(order, 'confirmed');
      expect((await deliverSigned(confirmed).expect(200)).body).toMatchObject({ outcome: 'escrow_confirmed' });
      expect((await deliverSigned(confirmed).expect(200)).body).toMatchObject({ outcome: 'duplicate' });
      await expect(escrowOf(order.orderId)).resolves.toMatchObject({ escrow_status: 'confirmed' });
      const page = await request(merchant.app).get(`/orders/${order.orderId}/return`).expect(200);
      expect(page.text).toContain('You confirmed the goods arrived');
    });

    it("records a rejection with the buyer's reason and logs it for a person", async () => {
      const warnings: string[] = [];
      const logging = await createMerchantApp({
        payhookBaseUrl: 'http://127.0.0.1:9',
        apiKey: 'svc_test_example',
        webhookSecret: SECRET,
        databaseUrl,
        publicUrl: PUBLIC_URL,
        logger: { ...silent, warn: (line: string) => warnings.push(line) },
      });
      try {
        const order = await paidEscrowOrder();
        const rejected = escrowEventFor(order, 'rejected');
        const body = JSON.stringify(rejected);
        const res = await request(logging.app)
          .post('/webhooks')
          .set('Content-Type', 'application/json')
          .set('Service-Signature', signWebhook(SECRET, body))
          .set('Service-Event-Id', rejected.id)
          .send(body)
          .expect(200);
        expect(res.body).toMatchObject({ outcome: 'escrow_rejected' });
        expect(warnings).toEqual([expect.stringContaining(`escrow of order ${order.orderId} rejected by the buyer`)]);
        await expect(escrowOf(order.orderId)).resolves.toMatchObject({
          escrow_status: 'rejected',
          escrow_reject_reason: '상품이 파손되어 도착했습니다.',
        });
        // Without a staff token the shop's staff routes stay shut.
        await request(logging.app).post(`/orders/${order.orderId}/shipment`).send(shipment).expect(403);
      } finally {
        await logging.close();
      }
    });

    it("records nothing for another payment's escrow or an ordinary order", async () => {
      const order = await paidEscrowOrder();
      const other = escrowEventFor({ ...order, paymentId: newId('payment') }, 'confirmed');
      expect((await deliverSigned(other).expect(200)).body).toMatchObject({ outcome: 'not_credited' });
      const ordinary = await placeOrder(2000);
      await deliverSigned(eventFor(ordinary)).expect(200);
      const onOrdinary = escrowEventFor(ordinary, 'confirmed');
      expect((await deliverSigned(onOrdinary).expect(200)).body).toMatchObject({ outcome: 'not_credited' });
      await expect(escrowOf(order.orderId)).resolves.toMatchObject({ escrow_status: 'awaiting_shipment' });
    });
  });

  describe('GET /orders/:id/return', () => {
    it('shows the status from the database, not from the query', async () => {
      const order = await placeOrder(15000);
      const waiting = await request(merchant.app)
        .get(`/orders/${order.orderId}/return?paymentId=${order.paymentId}&status=completed`)
        .expect(200);
      expect(waiting.text).toContain('waiting for payment');
      expect(waiting.text).toContain('₩15,000');

      await deliverSigned(eventFor(order)).expect(200);
      const paid = await request(merchant.app).get(`/orders/${order.orderId}/return`).expect(200);
      expect(paid.text).toContain('<strong>paid</strong>');
    });

    it('escapes what the query says', async () => {
      const order = await placeOrder(1000);
      const res = await request(merchant.app)
        .get(`/orders/${order.orderId}/return?status=${encodeURIComponent('<script>x</script>')}`)
        .expect(200);
      expect(res.text).not.toContain('<script>');
    });

    it('answers 404 for an unknown order', async () => {
      await request(merchant.app).get('/orders/ord_unknown/return').expect(404);
    });
  });
});
