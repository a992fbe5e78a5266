import { createHmac } from 'node:crypto';

import { randomBase62, WEBHOOK_HEADERS } from '@payhook/contracts';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

import { deliveryHeaders, standardWebhookSignature } from './standard-webhooks';
import { signWebhook, verifyWebhookSignature } from './webhook-signature';

// The shape of every secret payhook issues: `whsec_` + 32 base62 characters.
const SECRET = 'whsec_tbUnIEU4XQHGdkn6IIpsDwWbPgtXFQEG';
const OLDER_SECRET = 'whsec_Q0mB7kR2vX9pL4sT8wN1cZ6yH3jF5dGa';
const EVENT_ID = 'evt_4kZ2pQ9vN7bX1cR8mT3wY6sL';
const NOW = 1_700_000_000;
const BODY = `{"id":"${EVENT_ID}","type":"payment.completed"}`;

/** The specification's signature, computed here from its definition alone. */
function reference(secret: string, id: string, t: number, body: Buffer | string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = Buffer.concat([Buffer.from(`${id}.${t}.`), Buffer.from(body)]);
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

describe('standardWebhookSignature', () => {
  it('matches an HMAC-SHA256 computed independently over `<id>.<t>.<body>` with the decoded key', () => {
    expect(standardWebhookSignature(SECRET, EVENT_ID, NOW, BODY)).toBe(reference(SECRET, EVENT_ID, NOW, BODY));
  });

  it("matches the Standard Webhooks specification's published example", () => {
    const signature = standardWebhookSignature(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('keys the HMAC with the 24 bytes the base62 part of our secrets decodes to', () => {
    const secret = `whsec_${randomBase62(32)}`;
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(standardWebhookSignature(secret, EVENT_ID, NOW, BODY)).toBe(reference(secret, EVENT_ID, NOW, BODY));
    // Not the Service-Signature key (the whole string), nor the undecoded text.
    const undecoded = createHmac('sha256', secret).update(`${EVENT_ID}.${NOW}.${BODY}`).digest('base64');
    expect(standardWebhookSignature(secret, EVENT_ID, NOW, BODY)).not.toBe(`v1,${undecoded}`);
  });

  it('hashes multi-byte UTF-8 and Buffer bodies byte for byte', () => {
    const body = '{"memo":"주문 #42 — café 🎉"}';
    const bytes = Buffer.from(body, 'utf8');
    expect(standardWebhookSignature(SECRET, EVENT_ID, NOW, body)).toBe(reference(SECRET, EVENT_ID, NOW, bytes));
    expect(standardWebhookSignature(SECRET, EVENT_ID, NOW, bytes)).toBe(reference(SECRET, EVENT_ID, NOW, bytes));
    const notUtf8 = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    expect(standardWebhookSignature(SECRET, EVENT_ID, NOW, notUtf8)).toBe(reference(SECRET, EVENT_ID, NOW, notUtf8));
  });

  it('is `v1,` and the base64 of 32 bytes', () => {
    expect(standardWebhookSignature(SECRET, EVENT_ID, NOW, '')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it.each([-1, 1.5, Number.NaN])('refuses timestamp %p', (t) => {
    expect(() => standardWebhookSignature(SECRET, EVENT_ID, t, BODY)).toThrow(RangeError);
  });
});

describe('deliveryHeaders', () => {
  it('builds exactly the headers WEBHOOK_HEADERS names', () => {
    const headers = deliveryHeaders({ eventId: EVENT_ID, body: BODY, secrets: [SECRET], nowSeconds: NOW });
    expect(Object.keys(headers).sort()).toEqual(Object.values(WEBHOOK_HEADERS).sort());
  });

  it('signs both header sets with one secret at one time', () => {
    const headers = deliveryHeaders({ eventId: EVENT_ID, body: BODY, secrets: [SECRET], nowSeconds: NOW });
    expect(headers).toEqual({
      [WEBHOOK_HEADERS.eventId]: EVENT_ID,
      [WEBHOOK_HEADERS.signature]: signWebhook(SECRET, BODY, NOW),
      [WEBHOOK_HEADERS.webhookId]: EVENT_ID,
      [WEBHOOK_HEADERS.webhookTimestamp]: String(NOW),
      [WEBHOOK_HEADERS.webhookSignature]: reference(SECRET, EVENT_ID, NOW, BODY),
    });
    expect(() =>
      verifyWebhookSignature(BODY, headers[WEBHOOK_HEADERS.signature], SECRET, { nowSeconds: NOW }),
    ).not.toThrow();
  });

  it('lists one signature per secret, newest first, and signs Service-Signature with the newest only', () => {
    const body = Buffer.from(BODY);
    const headers = deliveryHeaders({ eventId: EVENT_ID, body, secrets: [SECRET, OLDER_SECRET], nowSeconds: NOW });
    expect(headers[WEBHOOK_HEADERS.webhookSignature]).toBe(
      `${reference(SECRET, EVENT_ID, NOW, body)} ${reference(OLDER_SECRET, EVENT_ID, NOW, body)}`,
    );
    expect(headers[WEBHOOK_HEADERS.signature]).toBe(signWebhook(SECRET, body, NOW));
  });

  it('uses the current time by default, the same in both header sets', () => {
    const before = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders({ eventId: EVENT_ID, body: BODY, secrets: [SECRET] });
    const t = Number(headers[WEBHOOK_HEADERS.webhookTimestamp]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(headers[WEBHOOK_HEADERS.signature]).toMatch(new RegExp(`^t=${t},v1=`));
  });

  it('refuses a delivery without a secret', () => {
    expect(() => deliveryHeaders({ eventId: EVENT_ID, body: BODY, secrets: [] })).toThrow(RangeError);
  });
});

describe('a delivery verified by the standardwebhooks package', () => {
  // The package checks against its own clock, so these deliveries are signed now.
  const secret = `whsec_${randomBase62(32)}`;
  const body = Buffer.from(JSON.stringify({ id: EVENT_ID, type: 'payment.completed', note: '결제 완료' }));

  it('verifies with the endpoint secret and returns the body', () => {
    const headers = deliveryHeaders({ eventId: EVENT_ID, body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body.toString()));
  });

  it('verifies with either secret while two are valid', () => {
    const older = `whsec_${randomBase62(32)}`;
    const headers = deliveryHeaders({ eventId: EVENT_ID, body, secrets: [secret, older] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body.toString()));
    expect(new Webhook(older).verify(body, headers)).toEqual(JSON.parse(body.toString()));
  });

  it('refuses another secret and a changed body', () => {
    const headers = deliveryHeaders({ eventId: EVENT_ID, body, secrets: [secret] });
    expect(() => new Webhook(`whsec_${randomBase62(32)}`).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(Buffer.concat([body, Buffer.from(' ')]), headers)).toThrow(
      WebhookVerificationError,
    );
  });
});
