import type { EventView } from '@payhook/contracts';
import { expectApiError } from '../support/api-expectations';
import { approvedMerchant, ConsoleClient } from '../support/console-client';
import type { TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { completedPayment, eventUntil, getEvent, signatureCheck } from '../support/webhook-scenario';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

jest.setTimeout(60_000);

/**
 * Endpoint health and recover, on a dispatcher that disables after 3 s of failures.
 * Its attempts wait up to 10 s: an endpoint a test holds back is slow, not failing.
 */
describe('endpoint health, disable and recover', () => {
  let stack: WebhookStack;
  let merchant: TestMerchant;
  let signingSecret: string;
  let failing: boolean;

  beforeAll(async () => {
    stack = await startWebhookStack('health', {
      WEBHOOK_TIMEOUT_MS: '10000',
      WEBHOOK_DISABLE_AFTER: '3s',
      WEBHOOK_RETRY_SCHEDULE: '500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms,500ms',
    });
    stack.receiver.respondWith(() => (failing ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
  }, START_MS);
  afterAll(() => stack.stop());
  beforeEach(async () => {
    failing = false;
    merchant = await stack.api.merchantWithKey('test');
    const saved = await endpoint().put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    signingSecret = saved.body.data.signingSecret as string;
  });

  const endpoint = () => stack.api.as(merchant);
  const health = async () => (await endpoint().get('/v1/webhook-endpoint').expect(200)).body.data;
  const attemptsOf = async (eventId: string) => (await getEvent(stack.api, merchant, eventId)).attempts.length;

  it('disables a failing endpoint, keeps later events as failed without an attempt, and recovers them after PUT', async () => {
    failing = true;
    const first = await completedPayment(stack.api, merchant);

    const disabled = await pollUntil(health, (data) => data.status === 'disabled');
    expect(disabled).toMatchObject({
      url: stack.receiver.url,
      signingSecret,
      status: 'disabled',
      lastError: 'HTTP 500',
      failingSince: expect.any(String),
      disabledAt: expect.any(String),
    });
    // Disabled by time, not by a count: the failure that began the episode and one 3 s or more later
    // (how many fall between depends on how fast the machine retries, not on the rule).
    expect(disabled.consecutiveFailures).toBeGreaterThanOrEqual(2);
    expect(Date.parse(disabled.disabledAt) - Date.parse(disabled.failingSince)).toBeGreaterThanOrEqual(3_000);

    // The event whose retry was due when it happened is kept as failed, with why.
    const firstFailed = await eventUntil(stack.api, merchant, first.eventId, (e) => e.deliveryStatus === 'failed');
    expect(firstFailed.undeliveredReason).toBe('endpoint_disabled');
    const firstAttempts = firstFailed.attempts.length;

    // A new event while disabled: failed at once, no attempt, nothing sent.
    const second = await completedPayment(stack.api, merchant);
    const secondFailed = await eventUntil(stack.api, merchant, second.eventId, (e) => e.deliveryStatus === 'failed');
    expect(secondFailed).toMatchObject({ undeliveredReason: 'endpoint_disabled', attempts: [] });
    expect(stack.receiver.forEvent(second.eventId)).toHaveLength(0);

    // A person's redelivery still makes its one attempt, and changes neither status nor count.
    await endpoint().post(`/v1/events/${second.eventId}/redeliver`).expect(202);
    await pollUntil(
      () => attemptsOf(second.eventId),
      (count) => count === 1,
    );
    expect(await health()).toMatchObject({
      status: 'disabled',
      consecutiveFailures: disabled.consecutiveFailures,
    });

    // PUT re-enables with a clean record and the same secret.
    failing = false;
    const reenabled = await endpoint().put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    expect(reenabled.body.data).toMatchObject({
      signingSecret,
      status: 'enabled',
      consecutiveFailures: 0,
      failingSince: null,
      disabledAt: null,
    });

    // Recover sends both again, oldest first, through the normal path.
    const since = new Date(Date.now() - 60_000).toISOString();
    const recovered = await endpoint().post('/v1/events/recover').send({ since }).expect(202);
    expect(recovered.body).toEqual({ data: { since, queued: 2 } });
    const delivered = await Promise.all(
      [first, second].map(({ eventId }) =>
        eventUntil(stack.api, merchant, eventId, (e: EventView) => e.deliveryStatus === 'succeeded'),
      ),
    );
    expect(delivered[0].attempts).toHaveLength(firstAttempts + 1);
    expect(delivered[1].attempts).toHaveLength(2);
    // The queue order of a recovery (oldest first) is held by delivery-state.repository.integration-spec.ts.
    expect(signatureCheck(stack.receiver.forEvent(second.eventId).at(-1)!, signingSecret)).toBe('valid');
    expect(await health()).toMatchObject({ status: 'enabled', consecutiveFailures: 0, failingSince: null });
  });

  it('counts automatic failures and clears them on the next success', async () => {
    let answers = 0;
    // The third answer waits until the test has seen two failures: on a busy machine a poll could
    // otherwise miss the half second between the second failure and the success after it.
    let releaseSuccess!: () => void;
    const twoFailuresSeen = new Promise<void>((resolve) => (releaseSuccess = resolve));
    stack.receiver.respondWith(() =>
      ++answers <= 2 ? { status: 503 } : { status: 200, body: 'ok', until: twoFailuresSeen },
    );
    try {
      const { eventId } = await completedPayment(stack.api, merchant);
      await pollUntil(health, (data) => data.consecutiveFailures === 2);
      const failingSince = (await health()).failingSince as string;
      expect(Date.parse(failingSince)).toBeLessThanOrEqual(Date.now());
      releaseSuccess();
      await eventUntil(stack.api, merchant, eventId, (e) => e.deliveryStatus === 'succeeded');
      expect(await health()).toMatchObject({
        status: 'enabled',
        consecutiveFailures: 0,
        failingSince: null,
        lastError: 'HTTP 503',
      });
    } finally {
      releaseSuccess();
      stack.receiver.respondWith(() => (failing ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
    }
  });

  it('answers 409 recover_in_progress while the previous recover still has events to send', async () => {
    // Two failed events of a merchant whose endpoint was missing when they were created.
    const other = await stack.api.merchantWithKey('test');
    const events = [await completedPayment(stack.api, other), await completedPayment(stack.api, other)];
    for (const { eventId } of events) {
      await eventUntil(stack.api, other, eventId, (e) => e.deliveryStatus === 'failed');
    }
    // The merchant's endpoint answers only when let go, so the first recover is still sending.
    let letGo!: () => void;
    const heldBack = new Promise<void>((resolve) => (letGo = resolve));
    stack.receiver.respondWith(() => ({ status: 200, body: 'ok', until: heldBack }));
    try {
      await stack.api.as(other).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
      const since = new Date(Date.now() - 60_000).toISOString();
      const first = await stack.api.as(other).post('/v1/events/recover').send({ since }).expect(202);
      expect(first.body.data.queued).toBe(2);
      expectApiError(await stack.api.as(other).post('/v1/events/recover').send({ since }), {
        status: 409,
        code: 'recover_in_progress',
      });
      // Another merchant is never held up by it.
      await endpoint().post('/v1/events/recover').send({ since }).expect(202);
      letGo();

      for (const { eventId } of events) {
        await eventUntil(stack.api, other, eventId, (e) => e.deliveryStatus === 'succeeded');
      }
      const again = await stack.api.as(other).post('/v1/events/recover').send({ since }).expect(202);
      expect(again.body.data.queued).toBe(0);
    } finally {
      letGo();
      stack.receiver.respondWith(() => (failing ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
    }
  });

  it('warns in the console from the first failure, shows a disabled endpoint, re-enables it and recovers', async () => {
    const shop = await approvedMerchant(stack.api);
    const consoleUser = await ConsoleClient.login(stack.api, shop.email);
    await stack.api.as(shop).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    const page = async () => (await consoleUser.get('/console/developers').expect(200)).text;
    expect(await page()).toContain('Receiving events.');

    failing = true;
    const { eventId } = await completedPayment(stack.api, shop);
    // The page that said it (a second fetch could come after WEBHOOK_DISABLE_AFTER on a busy machine).
    const failingPage = await pollUntil(page, (html) => html.includes('Failing since'));
    expect(failingPage).toMatch(/If it is still failing at .*, payhook disables it\./s);

    const disabled = await pollUntil(page, (html) => html.includes('Re-enable endpoint'));
    expect(disabled).toContain('<code>HTTP 500</code>');
    await eventUntil(stack.api, shop, eventId, (e) => e.deliveryStatus === 'failed');

    failing = false;
    await consoleUser.post('/console/developers/webhook-endpoint/enable', { mode: 'test' }).expect(303);
    expect((await stack.api.as(shop).get('/v1/webhook-endpoint').expect(200)).body.data.status).toBe('enabled');
    const recovered = await consoleUser.post('/console/developers/recover', { mode: 'test', days: '1' }).expect(200);
    expect(recovered.text).toContain('1 failed test event queued to be sent again');
    await eventUntil(stack.api, shop, eventId, (e) => e.deliveryStatus === 'succeeded');

    // The forms keep CSRF protection.
    await consoleUser.post('/console/developers/recover', { mode: 'test', days: '1' }, { csrf: null }).expect(403);
  });

  it.each([
    ['older than 30 days', new Date(Date.now() - 31 * 86_400_000).toISOString()],
    // A day ahead: still the future when a busy machine reaches this test minutes after loading the file.
    ['in the future', new Date(Date.now() + 86_400_000).toISOString()],
    ['not an instant', 'yesterday'],
    ['a date without a time', '2026-11-20'],
    ['an impossible date', '2026-02-30T00:00:00Z'],
    ['a number', 1_700_000_000],
  ])('answers 400 parameter_invalid for a since %s, and queues nothing', async (_label, since) => {
    expectApiError(await endpoint().post('/v1/events/recover').send({ since }), {
      status: 400,
      code: 'parameter_invalid',
      param: 'since',
    });
    const [row] = await stack.api.sql<{ count: number }>(
      `SELECT count(*)::int AS count FROM event_recoveries WHERE merchant_id = $1`,
      [merchant.merchantId],
    );
    expect(row.count).toBe(0);
  });

  it('answers 400 for a recover without since', async () => {
    expectApiError(await endpoint().post('/v1/events/recover').send({}), {
      status: 400,
      code: 'parameter_missing',
      param: 'since',
    });
  });
});

/** Attempts are recorded in batches; the health they add up to must be as if recorded one by one. */
describe('endpoint health under a burst of failures', () => {
  let stack: WebhookStack;
  let failing = true;

  beforeAll(async () => {
    // One attempt per event (the retry waits an hour), so every failure can be counted.
    stack = await startWebhookStack('health-burst', { WEBHOOK_RETRY_SCHEDULE: '1h' });
    stack.receiver.respondWith(() => (failing ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
  }, START_MS);
  afterAll(() => stack.stop());

  it('counts every failed attempt of 25 completions at once, and one success clears them', async () => {
    const merchant = await stack.api.merchantWithKey('test');
    await stack.api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    const burst = await Promise.all(Array.from({ length: 25 }, () => completedPayment(stack.api, merchant)));
    const attempted = await Promise.all(
      burst.map(({ eventId }) => eventUntil(stack.api, merchant, eventId, (e) => e.attempts.length === 1)),
    );

    const health = (await stack.api.as(merchant).get('/v1/webhook-endpoint').expect(200)).body.data;
    const firstStart = Math.min(...attempted.map((event) => Date.parse(event.attempts[0].startedAt)));
    expect(health).toMatchObject({ status: 'enabled', consecutiveFailures: 25, lastError: 'HTTP 500' });
    expect(Date.parse(health.failingSince)).toBe(firstStart);
    // Each event numbers its attempts from 1, whatever batch recorded it.
    expect(attempted.map((event) => event.attempts[0].number)).toEqual(burst.map(() => 1));

    failing = false;
    const { eventId } = await completedPayment(stack.api, merchant);
    await eventUntil(stack.api, merchant, eventId, (e) => e.deliveryStatus === 'succeeded');
    expect((await stack.api.as(merchant).get('/v1/webhook-endpoint').expect(200)).body.data).toMatchObject({
      status: 'enabled',
      consecutiveFailures: 0,
      failingSince: null,
      lastError: 'HTTP 500',
    });
  });
});
