import type { INestApplication } from '@nestjs/common';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { UrlScrubbingSpanExporter } from '@payhook/observability';
import { Writable } from 'node:stream';
import type { Response } from 'supertest';
import { idemKey } from '../support/api-expectations';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { timeFor } from '../support/time-budget';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

/** Every line an app writes, as the log pipeline would receive it. */
class CapturedLines extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

/** The buyers' numbers of this run, each as the buyer typed it. */
const NUMBERS = { mobile: '010-9876-5432', business: '124-81-00998', card: '9410-1234-5678-9012' };
/** Each number as digits, and the forms a leak could take (digits, as typed, the digits past the 01 prefix). */
const LEAK_FORMS = Object.values(NUMBERS).flatMap((typed) => {
  const digits = typed.replace(/\D/g, '');
  return [typed, digits, digits.slice(0, -4)];
});

/**
 * A buyer's number is a secret (issue 51): in a run that asks for receipts at create and on a
 * completed payment, live and test, refunds them and reads them back every way a merchant can, no
 * response, log line (at debug), span, webhook body, event, audit entry or idempotency row holds it
 * whole, nor its first digits; only the operator's queue shows it, and the rows keep it sealed.
 */
describe("a buyer's cash receipt number", () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let dispatcher: INestApplication;
  let receiver: WebhookReceiver;
  const log = new CapturedLines();
  const spans = new InMemorySpanExporter();

  beforeAll(async () => {
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new UrlScrubbingSpanExporter(spans))] }),
    );
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    services = await isolatedServices('receipt_numbers');
    const env = { ...services.env, LOG_FORMAT: 'json', LOG_LEVEL: 'debug' };
    api = await PaymentsApiHarness.start(env, undefined, log);
    [dispatcher, receiver] = await Promise.all([startDispatcher(env, log), WebhookReceiver.start()]);
  }, START_MS);
  afterAll(async () => {
    await dispatcher.close();
    await api.stop();
    await receiver.stop();
    await services.drop();
    trace.disable();
    context.disable();
  });

  it("appears whole only in the operator's queue", async () => {
    const test = await api.merchantWithKey('test');
    const live = await api.merchantWithKey('live', { live: true });
    const answers: Response[] = [];
    const kept = (response: Response) => {
      answers.push(response);
      return response;
    };
    for (const merchant of [test, live])
      await api
        .as(merchant)
        .put('/v1/webhook-endpoint')
        .send({
          url: receiver.url,
          enabledEvents: ['payment.completed', 'refund.succeeded', 'cash_receipt.issued', 'cash_receipt.failed'],
        })
        .expect(200);

    const create = async (merchant: TestMerchant, cashReceipt?: object) =>
      kept(
        await api
          .as(merchant)
          .post('/v1/payments')
          .set('Idempotency-Key', idemKey())
          .send(paymentBody({ amount: 50_000, ...(cashReceipt ? { cashReceipt } : {}) }))
          .expect(201),
      ).body.data.id as string;

    // Test mode: asked at create, completed, refunded in part (a cancel receipt); asked on a completed payment.
    const asked = await create(test, { type: 'income_deduction', identityNumber: NUMBERS.mobile });
    kept(await api.as(test).post(`/v1/test-helpers/payments/${asked}/complete`).expect(200));
    kept(
      await api
        .as(test)
        .post(`/v1/payments/${asked}/refunds`)
        .set('Idempotency-Key', idemKey())
        .send({ amount: 10_000 })
        .expect(201),
    );
    const later = await create(test);
    kept(await api.as(test).post(`/v1/test-helpers/payments/${later}/complete`).expect(200));
    kept(
      await api
        .as(test)
        .post(`/v1/payments/${later}/cash-receipts`)
        .send({ type: 'expense_proof', identityNumber: NUMBERS.business })
        .expect(201),
    );
    // Live: a card number, pending for the operator, who issues it.
    const livePayment = await create(live, { type: 'income_deduction', identityNumber: NUMBERS.card });
    await api.admin().post(`/admin/v1/payments/${livePayment}/confirm-receipt`).expect(200);
    const queue = await api.admin().get('/admin/v1/cash-receipts').query({ status: 'pending' }).expect(200);
    const [pending] = queue.body.data as { id: string; identityNumber: string }[];
    // The operator's queue is the one place that shows it whole.
    expect(pending.identityNumber).toBe(NUMBERS.card.replace(/\D/g, ''));
    await api.admin().post(`/admin/v1/cash-receipts/${pending.id}/issue`).send({ issueNumber: 'NTS-1' }).expect(200);

    // Every read a merchant has.
    for (const [merchant, paymentId] of [
      [test, asked],
      [test, later],
      [live, livePayment],
    ] as const) {
      kept(await api.as(merchant).get(`/v1/payments/${paymentId}`).expect(200));
      kept(await api.as(merchant).get('/v1/cash-receipts').query({ paymentId }).expect(200));
      kept(await api.as(merchant).get('/v1/events').query({ paymentId }).expect(200));
    }
    const receipts = (await api.as(test).get('/v1/cash-receipts').expect(200)).body.data as { id: string }[];
    for (const { id } of receipts) kept(await api.as(test).get(`/v1/cash-receipts/${id}`).expect(200));
    // Issue receipts of two test payments and one cancel, the live one: four events delivered.
    await pollUntil(
      async () => receiver.received.filter((delivery) => delivery.rawBody.includes('cash_receipt.issued')).length,
      (count) => count >= 4,
    );

    const stored = await api.sql<{ text: string }>(
      `SELECT body AS text FROM events
       UNION ALL SELECT row_to_json(a)::text FROM audit_log a
       UNION ALL SELECT row_to_json(k)::text FROM idempotency_keys k
       UNION ALL SELECT row_to_json(c)::text FROM cash_receipts c
       UNION ALL SELECT row_to_json(p)::text FROM payments p`,
    );
    const places: [string, string][] = [
      ['responses', answers.map((answer) => answer.text).join('\n')],
      ['logs', log.lines.join('\n')],
      [
        'spans',
        JSON.stringify(spans.getFinishedSpans().map(({ name, attributes, events }) => ({ name, attributes, events }))),
      ],
      ['webhooks', receiver.received.map((delivery) => delivery.rawBody.toString('utf8')).join('\n')],
      ['rows', stored.map((row) => row.text).join('\n')],
    ];
    expect(log.lines.length).toBeGreaterThan(20);
    expect(spans.getFinishedSpans().length).toBeGreaterThan(5);
    for (const [place, text] of places)
      for (const form of LEAK_FORMS)
        expect({ place, form, found: text.includes(form) }).toEqual({ place, form, found: false });
    // What a merchant sees instead.
    expect(places[0][1]).toContain('*******5432');
    expect(places[0][1]).toContain('******0998');
  }, 60_000);
});
