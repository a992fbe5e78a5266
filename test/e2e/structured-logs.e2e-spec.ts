import type { INestApplication } from '@nestjs/common';
import { Writable } from 'node:stream';
import { idemKey } from '../support/api-expectations';
import { CONSOLE_PASSWORD, ConsoleClient } from '../support/console-client';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { openVoucherPage } from '../support/pay-screen-client';
import { ADMIN_TOKEN, PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

/** Every line an app writes, as the log pipeline would receive it. */
class CapturedLines extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }

  records(): Record<string, unknown>[] {
    return this.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

/**
 * Issue 16: one payment followed from the API request to the webhook attempt through the logs of
 * both apps (JSON lines with one set of correlation fields), and no secret of a full flow in them.
 */
describe('structured logs', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let dispatcher: INestApplication;
  let receiver: WebhookReceiver;
  // nestjs-pino has one logger per process, made by the first app: both apps here write to it.
  const log = new CapturedLines();

  beforeAll(async () => {
    services = await isolatedServices('logs');
    const env = { ...services.env, LOG_FORMAT: 'json' };
    api = await PaymentsApiHarness.start({ ...env, TRUST_PROXY: 'loopback' }, undefined, log);
    [dispatcher, receiver] = await Promise.all([startDispatcher(env, log), WebhookReceiver.start()]);
  }, START_MS);
  afterAll(async () => {
    await dispatcher.close();
    await api.stop();
    await receiver.stop();
    await services.drop();
  });

  it('ties the create and completion requests to the dispatcher attempt, and never writes a secret', async () => {
    // Every kind of secret a merchant and an operator use in a day.
    const merchant = (await api.admin().post('/admin/v1/merchants').send({ name: 'Log Shop' }).expect(201)).body.data;
    const email = `${(merchant.id as string).toLowerCase()}@shop.example`;
    await api
      .admin()
      .post(`/admin/v1/merchants/${merchant.id}/approve`)
      .send({ consoleEmail: email, consolePassword: CONSOLE_PASSWORD })
      .expect(200);
    const { key } = await api.issueKey(merchant.id as string, 'test');
    const caller = { key };
    const endpoint = await api.as(caller).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    const signingSecret = endpoint.body.data.signingSecret as string;
    const console = await ConsoleClient.login(api, email);
    await console.get('/console/payments').expect(200);

    const idempotencyKey = idemKey();
    const created = await api
      .as(caller)
      .post('/v1/payments')
      .set('Idempotency-Key', idempotencyKey)
      .send(paymentBody())
      .expect(201);
    const paymentId = created.body.data.id as string;
    const voucher = await api.as(caller).post('/v1/test-helpers/vouchers').send({ faceValue: 1000 }).expect(201);
    const pin = voucher.body.data.pin as string;
    await (await openVoucherPage(api, created.body.data.payUrl as string)).submit(pin);
    const completed = await api.as(caller).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
    await pollUntil(
      async () => receiver.received.length,
      (count) => count >= 1,
    );
    const eventId = receiver.received[0].headers['service-event-id'] as string;
    await pollUntil(
      async () => log.records().filter((line) => line.eventId === eventId && line.attempt === 1),
      (lines) => lines.length === 1,
    );

    // JSON lines (records() parses each), with a level, a time and the app's name (in production
    // each app is its own process; here the first app's logger names both).
    const lines = log.records();
    for (const line of lines)
      expect(line).toEqual(
        expect.objectContaining({ level: expect.any(Number), time: expect.any(String), service: expect.any(String) }),
      );

    // The create request's line: its Request-Id, the merchant, the mode and the payment it made.
    const createRequestId = created.headers['request-id'];
    expect(lines.find((line) => line.requestId === createRequestId && line.res)).toEqual(
      expect.objectContaining({
        requestId: createRequestId,
        merchantId: merchant.id,
        livemode: false,
        paymentId,
        req: { method: 'POST', path: '/v1/payments' },
        res: { status: 201 },
      }),
    );
    // The webhook attempt carries the id of the request that completed the payment (through the
    // outbox row and the message headers), and what it was about.
    const attempt = lines.find((line) => line.eventId === eventId && line.attempt === 1);
    expect(attempt).toEqual(
      expect.objectContaining({
        requestId: completed.headers['request-id'],
        merchantId: merchant.id,
        livemode: false,
        paymentId,
        eventId,
        attempt: 1,
        responseStatus: 200,
        endpointHost: new URL(receiver.url).host,
      }),
    );

    // Not one secret of the flow, in either app's lines.
    const everything = log.lines.join('\n');
    const cookies = [console.cookie.split('=')[1]];
    // The payment screen's suffix is its only key.
    const payScreenSuffix = new URL(created.body.data.payUrl as string).pathname.split('/')[2];
    for (const secret of [
      key,
      ADMIN_TOKEN,
      signingSecret,
      CONSOLE_PASSWORD,
      pin,
      idempotencyKey,
      payScreenSuffix,
      ...cookies,
    ]) {
      expect({ secret, found: everything.includes(secret) }).toEqual({ secret, found: false });
    }
  }, 20_000);
});
