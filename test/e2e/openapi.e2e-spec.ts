import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { idemKey } from '../support/api-expectations';
import { COMMITTED_ADMIN_OPENAPI, COMMITTED_OPENAPI, openApiValidator } from '../support/openapi-validator';
import { paymentBody, type PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { completedPayment, refundsClient } from '../support/refunds-client';
import { createPayment } from '../support/webhook-scenario';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

const ACCOUNT = { bank: 'KB Kookmin', accountNumber: '110-987-654321', holderName: 'Hong Gildong' };

const OPENAPI_TYPES_SCRIPT = join(__dirname, '../../scripts/openapi-types.mjs');

type Operation = {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<string, { content?: { 'application/json'?: { schema?: { $ref?: string } } } }>;
};

/**
 * The merchant API's OpenAPI document (issue 15): generated from the code, served without auth,
 * committed as docs/openapi.json (`npm run openapi` rewrites it), and true to what the API answers.
 */
describe('GET /v1/openapi.json', () => {
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  let served: { openapi: string; paths: Record<string, Record<string, Operation>>; components: never };
  let admin: { paths: Record<string, Record<string, Operation>>; security: unknown; components: never };

  beforeAll(async () => {
    stack = await startWebhookStack('openapi');
    api = stack.api;
    merchant = await api.merchantWithKey('test');
    served = (await api.http().get('/v1/openapi.json').expect(200)).body;
    admin = (await api.admin().get('/admin/v1/openapi.json').expect(200)).body;
    if (process.env.UPDATE_OPENAPI === '1') {
      writeFileSync(COMMITTED_OPENAPI, `${JSON.stringify(served, null, 2)}\n`);
      writeFileSync(COMMITTED_ADMIN_OPENAPI, `${JSON.stringify(admin, null, 2)}\n`);
      execFileSync('node', [OPENAPI_TYPES_SCRIPT]);
    }
  }, START_MS);
  afterAll(() => stack.stop());

  it('is the committed docs/openapi.json (npm run openapi rewrites it after a change)', () => {
    expect(served).toEqual(JSON.parse(readFileSync(COMMITTED_OPENAPI, 'utf8')));
    expect(served.openapi).toBe('3.1.0');
  });

  it('serves the operator API as a second document, committed too, only with the admin token', async () => {
    expect(admin).toEqual(JSON.parse(readFileSync(COMMITTED_ADMIN_OPENAPI, 'utf8')));
    expect(admin.security).toEqual([{ adminToken: [] }]);
    expect(Object.keys(admin.paths)).toEqual(expect.arrayContaining(['/admin/v1/merchants', '/admin/v1/holidays']));
    expect(Object.keys(admin.paths).filter((path) => !path.startsWith('/admin/v1/'))).toEqual([]);
    await api.http().get('/admin/v1/openapi.json').expect(401);
    await api.as(merchant).get('/admin/v1/openapi.json').expect(401);
  });

  it('gives the SDK types generated from it, and the SDK checks its own types against them', () => {
    // libs/sdk/src/openapi-types.check.ts does the comparison when `npm run typecheck` compiles it.
    expect(() => execFileSync('node', [OPENAPI_TYPES_SCRIPT, '--check'], { stdio: 'pipe' })).not.toThrow();
  });

  it('describes every operation of both APIs: a success answer and the errors in the one shape', () => {
    const operations = [served, admin].flatMap((document) =>
      Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ route: `${method} ${path}`, operation })),
      ),
    );
    expect(operations.length).toBeGreaterThanOrEqual(35);
    const undescribed = operations
      .filter(
        ({ operation }) => !operation.responses['401'] || !Object.keys(operation.responses).some((s) => s < '300'),
      )
      .map(({ route }) => route);
    expect(undescribed).toEqual([]);
  });

  it('shows an example of every response shape, each true to its schema', () => {
    for (const document of [served, admin]) {
      const check = openApiValidator(document);
      const schemas = (document.components as { schemas: Record<string, { examples?: unknown[] }> }).schemas;
      // The unions (each of their members shows one) and the delivery fields Event and EventSummary add.
      const responseShapes = Object.keys(schemas).filter(
        (name) => !name.endsWith('Dto') && !['PaymentEvent', 'WebhookEvent', 'EventDelivery'].includes(name),
      );
      for (const name of responseShapes) {
        expect({ name, examples: schemas[name].examples?.length }).toEqual({ name, examples: 1 });
        expect({ name, problems: check(name, schemas[name].examples![0]) }).toEqual({ name, problems: [] });
      }
    }
  });

  it("shows the refund account only in the operator's examples, never in a merchant answer's", () => {
    const examplesOf = (document: { components: never }) =>
      Object.entries((document.components as { schemas: Record<string, { examples?: unknown[] }> }).schemas)
        .filter(([name]) => !name.endsWith('Dto'))
        .map(([name, schema]) => ({ name, example: JSON.stringify(schema.examples ?? []) }));
    const adminRefund = examplesOf(admin).find(({ name }) => name === 'AdminRefund');
    const { accountNumber } = JSON.parse(adminRefund!.example)[0].refundAccount as { accountNumber: string };
    const leaking = examplesOf(served).filter(
      ({ example }) => example.includes('refundAccount') || example.includes(accountNumber),
    );
    expect(leaking).toEqual([]);
  });

  it("shows a buyer's whole number only in the operator's examples, never in a merchant answer's", () => {
    const schemasOf = (document: { components: never }) =>
      (document.components as { schemas: Record<string, { examples?: unknown[] }> }).schemas;
    const [{ identityNumber }] = schemasOf(admin).AdminCashReceipt.examples as { identityNumber: string }[];
    expect(identityNumber).toMatch(/^[0-9]{10,19}$/);
    const leaking = Object.entries(schemasOf(served)).filter(([, schema]) =>
      JSON.stringify(schema.examples ?? []).includes(identityNumber),
    );
    expect(leaking).toEqual([]);
  });

  it('describes only merchant routes, each with the API key scheme and its errors in the one shape', () => {
    const paths = Object.keys(served.paths);
    expect(paths).toEqual(expect.arrayContaining(['/v1/payments', '/v1/payments/{id}/cancel', '/v1/events/{id}']));
    expect(paths.filter((path) => !path.startsWith('/v1/'))).toEqual([]);
    const documented = Object.entries(served.paths)
      .flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({ path, method, operation })),
      )
      .filter(({ operation }) => operation.responses['401']);
    expect(documented.length).toBeGreaterThanOrEqual(11);
    for (const { operation } of documented) {
      expect(operation.security).toEqual([{ apiKey: [] }]);
      expect(operation.responses['401'].content?.['application/json']?.schema).toEqual({
        $ref: '#/components/schemas/Error',
      });
    }
    expect(served.paths['/v1/payments'].post.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true }),
    );
  });

  it('matches what the API answers: payments, events, the endpoint and an error', async () => {
    const check = openApiValidator(served);
    const created = await api.as(merchant).post('/v1/payments').set('Idempotency-Key', idemKey()).send(paymentBody());
    expect(check('CreatedPayment', created.body.data)).toEqual([]);
    const id = created.body.data.id as string;
    expect(check('Payment', (await api.as(merchant).get(`/v1/payments/${id}`)).body.data)).toEqual([]);
    const list = await api.as(merchant).get('/v1/payments?limit=2');
    for (const payment of list.body.data) expect(check('Payment', payment)).toEqual([]);

    await api
      .as(merchant)
      .put('/v1/webhook-endpoint')
      .send({ url: stack.receiver.url, enabledEvents: ['payment.canceled'] });
    expect(check('WebhookEndpoint', (await api.as(merchant).get('/v1/webhook-endpoint')).body.data)).toEqual([]);
    expect(check('Payment', (await api.as(merchant).post(`/v1/payments/${id}/cancel`)).body.data)).toEqual([]);
    const completed = await createPayment(api, merchant);
    await api.as(merchant).post(`/v1/test-helpers/payments/${completed}/complete`).expect(200);
    for (const paymentId of [id, completed]) {
      const [event] = (await api.as(merchant).get(`/v1/events?paymentId=${paymentId}`)).body.data;
      expect(check('EventSummary', event)).toEqual([]);
      expect(check('Event', (await api.as(merchant).get(`/v1/events/${event.id}`)).body.data)).toEqual([]);
    }
    const refused = await api.as(merchant).post('/v1/payments').set('Idempotency-Key', idemKey()).send({});
    expect(check('Error', refused.body)).toEqual([]);
    // The validator itself refuses what the document does not allow.
    expect(check('Payment', { ...created.body.data, status: 'refunded' })).not.toEqual([]);
  });

  it('matches what the refund routes answer: a test refund, the live queue, succeed, fail and the refund events', async () => {
    const check = openApiValidator(served);
    const checkAdmin = openApiValidator(admin);
    const partial = await completedPayment(api, merchant, 15_000);
    const refunded = await refundsClient(api, merchant).create(partial, { amount: 5_000, reason: 'returned' });
    expect(check('Refund', refunded.body.data)).toEqual([]);
    const listed = await refundsClient(api, merchant).list({ paymentId: partial });
    for (const refund of listed.body.data) expect(check('Refund', refund)).toEqual([]);

    const live = await api.merchantWithKey('live', { live: true });
    const liveRefunds = refundsClient(api, live);
    const [toSucceed, toFail] = await Promise.all([1, 2].map(() => completedPayment(api, live, 9_000, true)));
    const pending = await Promise.all(
      [toSucceed, toFail].map(
        async (paymentId) => (await liveRefunds.create(paymentId, { refundAccount: ACCOUNT }).expect(201)).body.data,
      ),
    );
    expect(check('Refund', pending[0])).toEqual([]);
    const queue = await api.admin().get('/admin/v1/refunds?status=pending&limit=100').expect(200);
    for (const refund of queue.body.data) expect(checkAdmin('AdminRefund', refund)).toEqual([]);
    const succeeded = await api
      .admin()
      .post(`/admin/v1/refunds/${pending[0].id}/succeed`)
      .send({ bankTransactionId: 'BANK-TX-1' });
    // The operator's succeed and fail answer the Refund itself, not the queue's view.
    expect(checkAdmin('Refund', succeeded.body.data)).toEqual([]);
    const failed = await api.admin().post(`/admin/v1/refunds/${pending[1].id}/fail`).send({ reason: 'account closed' });
    expect(checkAdmin('Refund', failed.body.data)).toEqual([]);
    expect(check('Refund', (await liveRefunds.get(pending[1].id)).body.data)).toEqual([]);

    const eventsOf = async (caller: TestMerchant, paymentId: string) =>
      (await api.as(caller).get(`/v1/events?paymentId=${paymentId}`)).body.data as { id: string; type: string }[];
    const refundEvents = [
      { caller: merchant, paymentId: partial, type: 'refund.succeeded', shape: 'RefundSucceededEvent' },
      { caller: live, paymentId: toFail, type: 'refund.failed', shape: 'RefundFailedEvent' },
    ];
    for (const { caller, paymentId, type, shape } of refundEvents) {
      const event = (await eventsOf(caller, paymentId)).find((one) => one.type === type)!;
      expect(check('EventSummary', event)).toEqual([]);
      const { id, createdAt, data } = event as unknown as Record<string, unknown>;
      expect(check(shape, { id, type, createdAt, data })).toEqual([]);
      expect(check('Event', (await api.as(caller).get(`/v1/events/${event.id}`)).body.data)).toEqual([]);
    }
  });

  it('matches what the cash receipt routes answer: test receipts, the live queue, issue, fail and the receipt events', async () => {
    const check = openApiValidator(served);
    const checkAdmin = openApiValidator(admin);
    const asked = async (identityNumber: string) =>
      completedPayment(api, merchant, 15_000, false, { cashReceipt: { type: 'income_deduction', identityNumber } });
    const [issued, failed] = [await asked('010-1234-5678'), await asked('01000000000')];
    const receiptEvents = [
      { paymentId: issued, type: 'cash_receipt.issued', shape: 'CashReceiptIssuedEvent' },
      { paymentId: failed, type: 'cash_receipt.failed', shape: 'CashReceiptFailedEvent' },
    ];
    for (const { paymentId, type, shape } of receiptEvents) {
      const events = (await api.as(merchant).get(`/v1/events?paymentId=${paymentId}`)).body.data as { type: string }[];
      const event = events.find((one) => one.type === type)!;
      expect(check('EventSummary', event)).toEqual([]);
      const { id, createdAt, data } = event as unknown as Record<string, unknown>;
      expect(check(shape, { id, type, createdAt, data })).toEqual([]);
      // The event's shape holds its receipt to the status it names.
      expect(check(shape, { id, type, createdAt, data: { ...(data as object), status: 'pending' } })).not.toEqual([]);
      const [receipt] = (await api.as(merchant).get(`/v1/cash-receipts?paymentId=${paymentId}`)).body.data;
      expect(check('CashReceipt', receipt)).toEqual([]);
    }

    const live = await api.merchantWithKey('live', { live: true });
    const requested = await Promise.all(
      ['010-2222-3333', '124-81-00998'].map(async (identityNumber, index) => {
        const paymentId = await completedPayment(api, live, 120_000, true);
        const type = index === 0 ? 'income_deduction' : 'expense_proof';
        const made = await api.as(live).post(`/v1/payments/${paymentId}/cash-receipts`).send({ type, identityNumber });
        expect(check('CashReceipt', made.body.data)).toEqual([]);
        return made.body.data as { id: string };
      }),
    );
    const queue = await api.admin().get('/admin/v1/cash-receipts?status=pending&limit=100').expect(200);
    for (const receipt of queue.body.data) expect(checkAdmin('AdminCashReceipt', receipt)).toEqual([]);
    const answered = [
      await api.admin().post(`/admin/v1/cash-receipts/${requested[0].id}/issue`).send({ issueNumber: 'NTS-0001' }),
      await api.admin().post(`/admin/v1/cash-receipts/${requested[1].id}/fail`).send({ reason: 'closed business' }),
    ];
    // The operator's issue and fail answer the CashReceipt itself, masked, not the queue's view.
    for (const answer of answered) expect(checkAdmin('CashReceipt', answer.body.data)).toEqual([]);
  });

  it('matches what the escrow routes answer: the shipment, its correction, confirm, reject, the escrow events and held settlements', async () => {
    const check = openApiValidator(served);
    const escrowPayment = () =>
      completedPayment(api, merchant, 39_000, false, { escrow: { buyerEmail: 'buyer@example.com' } });
    const [toConfirm, toReject] = [await escrowPayment(), await escrowPayment()];
    const awaiting = (await api.as(merchant).get(`/v1/payments/${toConfirm}`)).body.data;
    expect(awaiting.escrow).toMatchObject({ status: 'awaiting_shipment' });
    expect(check('Payment', awaiting)).toEqual([]);
    for (const paymentId of [toConfirm, toReject]) {
      const shipped = await api
        .as(merchant)
        .post(`/v1/payments/${paymentId}/escrow/shipment`)
        .send({ carrier: 'CJ대한통운', trackingNumber: '6901-2345-6789' })
        .expect(200);
      expect(check('Payment', shipped.body.data)).toEqual([]);
      expect(check('Escrow', shipped.body.data.escrow)).toEqual([]);
    }
    const corrected = await api
      .as(merchant)
      .post(`/v1/payments/${toConfirm}/escrow/shipment`)
      .send({ carrier: '우체국택배', trackingNumber: '6091-1234-5678' })
      .expect(200);
    expect(check('Payment', corrected.body.data)).toEqual([]);
    const helper = (paymentId: string) => `/v1/test-helpers/payments/${paymentId}/escrow`;
    const confirmed = await api
      .as(merchant)
      .post(`${helper(toConfirm)}/confirm`)
      .expect(200);
    expect(check('Payment', confirmed.body.data)).toEqual([]);
    const rejected = await api
      .as(merchant)
      .post(`${helper(toReject)}/reject`)
      .send({ reason: '상품이 파손되어 도착했습니다.' })
      .expect(200);
    expect(check('Payment', rejected.body.data)).toEqual([]);
    const conflict = await api
      .as(merchant)
      .post(`${helper(toReject)}/confirm`)
      .expect(409);
    expect(check('Error', conflict.body)).toEqual([]);

    const escrowEvents = [
      { paymentId: toConfirm, type: 'escrow.confirmed', shape: 'EscrowConfirmedEvent', other: 'rejected' },
      { paymentId: toReject, type: 'escrow.rejected', shape: 'EscrowRejectedEvent', other: 'confirmed' },
    ];
    for (const { paymentId, type, shape, other } of escrowEvents) {
      const events = (await api.as(merchant).get(`/v1/events?paymentId=${paymentId}`)).body.data as { type: string }[];
      const event = events.find((one) => one.type === type)!;
      expect(check('EventSummary', event)).toEqual([]);
      const { id, createdAt, data } = event as unknown as Record<string, unknown>;
      expect(check(shape, { id, type, createdAt, data })).toEqual([]);
      // The event's shape holds its escrow to the status it names.
      expect(check(shape, { id, type, createdAt, data: { ...(data as object), status: other } })).not.toEqual([]);
      expect(check('Event', (await api.as(merchant).get(`/v1/events/${id as string}`)).body.data)).toEqual([]);
    }

    // The rejected escrow's payment record stays held; the confirmed one's is scheduled.
    const seoulDate = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().slice(0, 10);
    const [from, to] = [seoulDate(Date.now() - 86_400_000), seoulDate(Date.now() + 86_400_000)];
    const settlements = await api.as(merchant).get(`/v1/settlements?from=${from}&to=${to}&limit=100`).expect(200);
    const records = (settlements.body.data as { paymentId: string; payoutStatus: string }[]).filter(({ paymentId }) =>
      [toConfirm, toReject].includes(paymentId),
    );
    expect(Object.fromEntries(records.map(({ paymentId, payoutStatus }) => [paymentId, payoutStatus]))).toEqual({
      [toConfirm]: 'scheduled',
      [toReject]: 'held',
    });
    for (const record of records) expect(check('Settlement', record)).toEqual([]);
  });
});
