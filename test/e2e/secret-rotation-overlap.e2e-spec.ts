import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { PreviousSecretsPurger } from '../../apps/payments-api/src/webhooks/endpoints/previous-secrets.purger';
import { expectApiError } from '../support/api-expectations';
import type { TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import type { ReceivedWebhook } from '../support/webhook-receiver';
import { completedPayment, eventUntil, signatureCheck } from '../support/webhook-scenario';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';

/** The base64 signature of each `v1,` entry of a delivery's webhook-signature, in order. */
const standardSignatures = (delivery: ReceivedWebhook) =>
  String(delivery.headers['webhook-signature'])
    .split(' ')
    .map((entry) => entry.replace(/^v1,/, ''));

/** The Standard Webhooks signature `secret` makes of a delivery, computed here from the specification. */
const standardSignatureWith = (secret: string, delivery: ReceivedWebhook) =>
  createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${String(delivery.headers['webhook-id'])}.${String(delivery.headers['webhook-timestamp'])}.`)
    .update(delivery.rawBody)
    .digest('base64');

/** Whether a receiver on `secret` verifies the delivery with the standardwebhooks library. */
const standardVerifies = (secret: string, delivery: ReceivedWebhook) => {
  try {
    new Webhook(secret).verify(delivery.rawBody.toString('utf8'), delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

/**
 * During `previousSecretExpiresIn` the rotated-out secret also signs
 * webhook-signature (after the new one), so receivers still on it keep verifying; Service-Signature is
 * the new secret's alone; the old secret is sealed at rest and forgotten when it expires.
 */
describe('signing secret rotation with overlap', () => {
  let stack: WebhookStack;
  let merchant: TestMerchant;

  beforeAll(async () => {
    stack = await startWebhookStack('overlap');
  });
  afterAll(() => stack.stop());
  beforeEach(async () => {
    merchant = await stack.api.merchantWithKey('test');
  });

  const endpoint = () => stack.api.as(merchant).get('/v1/webhook-endpoint').expect(200);
  const rotate = (body?: object) =>
    stack.api
      .as(merchant)
      .post('/v1/webhook-endpoint/rotate-secret')
      .send(body ?? {});
  /** One payment completed and its delivery as the receiver got it. */
  async function delivered(): Promise<ReceivedWebhook> {
    const { eventId } = await completedPayment(stack.api, merchant);
    await eventUntil(stack.api, merchant, eventId, (event) => event.deliveryStatus === 'succeeded');
    const [delivery] = stack.receiver.forEvent(eventId);
    return delivery;
  }
  const storedOverlap = async () =>
    (
      await stack.api.sql<{ previous_signing_secret: string | null; previous_secret_expires_at: Date | null }>(
        `SELECT previous_signing_secret, previous_secret_expires_at FROM webhook_endpoints
         WHERE merchant_id = $1 AND livemode = false`,
        [merchant.merchantId],
      )
    )[0];

  it('signs webhook-signature with the new and the old secret, new first, during the overlap', async () => {
    const old = (await stack.api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200))
      .body.data.signingSecret as string;
    const rotated = await rotate({ previousSecretExpiresIn: 3_600 }).expect(200);
    const fresh = rotated.body.data.signingSecret as string;
    expect(fresh).not.toBe(old);
    // The answer is the endpoint's usual shape: the old secret is never shown again.
    expect(JSON.stringify(rotated.body)).not.toContain(old);

    const delivery = await delivered();
    expect(standardSignatures(delivery)).toEqual([
      standardSignatureWith(fresh, delivery),
      standardSignatureWith(old, delivery),
    ]);
    expect(standardVerifies(old, delivery)).toBe(true);
    expect(standardVerifies(fresh, delivery)).toBe(true);
    expect(signatureCheck(delivery, fresh)).toBe('valid');
    expect(signatureCheck(delivery, old)).toBe('signature_mismatch');

    // Sealed at rest like the current secret, with the time it stops.
    const stored = await storedOverlap();
    expect(stored.previous_signing_secret).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(stored.previous_signing_secret).not.toContain(old.slice('whsec_'.length));
    expect(stored.previous_secret_expires_at!.getTime() - Date.now()).toBeGreaterThan(3_500_000);
  });

  it('stops the old secret at once without an overlap, also one still in an earlier overlap', async () => {
    const first = (await stack.api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url })).body.data
      .signingSecret as string;
    const second = (await rotate({ previousSecretExpiresIn: 86_400 }).expect(200)).body.data.signingSecret as string;
    const third = (await rotate().expect(200)).body.data.signingSecret as string;

    const delivery = await delivered();
    expect(standardSignatures(delivery)).toEqual([standardSignatureWith(third, delivery)]);
    for (const gone of [first, second]) expect(standardVerifies(gone, delivery)).toBe(false);
    await expect(storedOverlap()).resolves.toEqual({ previous_signing_secret: null, previous_secret_expires_at: null });
  });

  it('signs with the new secret alone once the overlap has expired, and then forgets the old one', async () => {
    const old = (await stack.api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url })).body.data
      .signingSecret as string;
    const fresh = (await rotate({ previousSecretExpiresIn: 60 }).expect(200)).body.data.signingSecret as string;
    // The clock is not raced: the overlap is moved into the past.
    await stack.api.sql(
      `UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second'
       WHERE merchant_id = $1 AND livemode = false`,
      [merchant.merchantId],
    );
    const delivery = await delivered();
    expect(standardSignatures(delivery)).toEqual([standardSignatureWith(fresh, delivery)]);
    expect(standardVerifies(old, delivery)).toBe(false);

    await stack.api.app.get(PreviousSecretsPurger).runOnce();
    await pollUntil(storedOverlap, (stored) => stored.previous_signing_secret === null);
    await expect(storedOverlap()).resolves.toEqual({ previous_signing_secret: null, previous_secret_expires_at: null });
  });

  it('signs with the current secret alone when the rotated-out one does not open, and keeps the endpoint readable', async () => {
    await stack.api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    const fresh = (await rotate({ previousSecretExpiresIn: 3_600 }).expect(200)).body.data.signingSecret as string;
    // Another endpoint's sealed secret: sealed for another merchant, it does not open for this one.
    const other = await stack.api.merchantWithKey('test');
    await stack.api.as(other).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    await stack.api.sql(
      `UPDATE webhook_endpoints SET previous_signing_secret =
         (SELECT signing_secret FROM webhook_endpoints WHERE merchant_id = $2 AND livemode = false)
       WHERE merchant_id = $1 AND livemode = false`,
      [merchant.merchantId, other.merchantId],
    );
    expect((await endpoint()).body.data.signingSecret).toBe(fresh);
    const delivery = await delivered();
    expect(standardSignatures(delivery)).toEqual([standardSignatureWith(fresh, delivery)]);
    expect(signatureCheck(delivery, fresh)).toBe('valid');
  });

  it.each<[string, object, { code: string; param: string }]>([
    [
      'a negative overlap',
      { previousSecretExpiresIn: -1 },
      { code: 'parameter_invalid', param: 'previousSecretExpiresIn' },
    ],
    [
      'an overlap over 7 days',
      { previousSecretExpiresIn: 604_801 },
      { code: 'parameter_invalid', param: 'previousSecretExpiresIn' },
    ],
    [
      'a fraction of a second',
      { previousSecretExpiresIn: 1.5 },
      { code: 'parameter_invalid', param: 'previousSecretExpiresIn' },
    ],
    [
      'seconds as a string',
      { previousSecretExpiresIn: '3600' },
      { code: 'parameter_invalid', param: 'previousSecretExpiresIn' },
    ],
    ['an unknown field', { previousSecret: 'keep' }, { code: 'parameter_unknown', param: 'previousSecret' }],
  ])('refuses %s with 400 and keeps the secret', async (_description, body, expected) => {
    await stack.api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    const before = (await endpoint()).body;
    expectApiError(await rotate(body), { status: 400, ...expected });
    await expect(endpoint()).resolves.toMatchObject({ body: before });
    await expect(storedOverlap()).resolves.toEqual({ previous_signing_secret: null, previous_secret_expires_at: null });
  });

  it('accepts the longest overlap, 7 days', async () => {
    await stack.api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    await rotate({ previousSecretExpiresIn: 604_800 }).expect(200);
    const stored = await storedOverlap();
    expect(stored.previous_secret_expires_at!.getTime() - Date.now()).toBeGreaterThan(604_000_000);
  });
});
