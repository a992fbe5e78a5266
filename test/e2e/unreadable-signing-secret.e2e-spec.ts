import { SecretsKeyring, signingSecretContext } from '@payhook/config';
import { randomBytes } from 'node:crypto';
import { expectApiError } from '../support/api-expectations';
import type { PaymentsApiHarness, TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { completePayment, createPayment, getEvent } from '../support/webhook-scenario';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

/**
 * A signing secret that does not open with SECRETS_KEY (a wrong key on one app, or
 * SECRETS_KEY_PREVIOUS removed before the rows moved): the API answers 503, never 500 or a secret,
 * and the dispatcher fails the event with the reason instead of retrying what no retry can fix, so
 * recover and redeliver find it once the key is right.
 */
describe('a signing secret sealed under a key the apps do not hold', () => {
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    stack = await startWebhookStack('unreadable-secret');
    api = stack.api;
    merchant = await api.merchantWithKey('test');
    await api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    const otherKey = new SecretsKeyring(randomBytes(32));
    const [{ id }] = await api.sql<{ id: string }>(
      `SELECT id FROM webhook_endpoints WHERE merchant_id = $1 AND livemode = false`,
      [merchant.merchantId],
    );
    const endpoint = { id, merchantId: merchant.merchantId, livemode: false };
    await api.sql(`UPDATE webhook_endpoints SET signing_secret = $2 WHERE id = $1`, [
      id,
      otherKey.seal('whsec_sealed_elsewhere', signingSecretContext(endpoint)),
    ]);
  }, START_MS);
  afterAll(() => stack.stop());

  it('answers 503 with Retry-After for the endpoint, in the one error shape', async () => {
    const response = await api.as(merchant).get('/v1/webhook-endpoint');
    expectApiError(response, { status: 503, code: 'service_unavailable' });
    expect(response.headers['retry-after']).toBeDefined();
    expect(response.text).not.toContain('whsec_');
  });

  it('fails the event with the reason, without an attempt, instead of retrying it', async () => {
    const paymentId = await createPayment(api, merchant);
    const eventId = await completePayment(api, merchant, paymentId);
    const event = await pollUntil(
      () => getEvent(api, merchant, eventId),
      (view) => view.deliveryStatus === 'failed',
    );
    expect(event.undeliveredReason).toMatch(/^signing_secret_unreadable/);
    expect(event.attempts).toEqual([]);
    expect(stack.receiver.received).toEqual([]);
  });
});
