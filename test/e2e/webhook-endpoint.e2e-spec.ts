import { expectApiError, expectRequestId } from '../support/api-expectations';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { type WebhookReceiver } from '../support/webhook-receiver';
import { completedPayment, signatureCheck } from '../support/webhook-scenario';
import { timeFor } from '../support/time-budget';

/** Starting its own database and two apps. */
const START_MS = timeFor({ database: 1, app: 2 });

const SIGNING_SECRET = /^whsec_[0-9A-Za-z]{24,}$/;

/** The merchant's webhook endpoint, one per mode of the key used. */
/** An endpoint that has not failed, receiving the default event types. */
const HEALTHY = {
  enabledEvents: ['payment.completed'],
  status: 'enabled',
  failingSince: null,
  consecutiveFailures: 0,
  lastError: null,
  disabledAt: null,
};

describe('webhook endpoint', () => {
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let merchant: TestMerchant;

  beforeAll(async () => {
    stack = await startWebhookStack('endpoint');
    ({ api, receiver } = stack);
  }, START_MS);
  afterAll(() => stack.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  const put = (body: object, caller: TestMerchant = merchant) => api.as(caller).put('/v1/webhook-endpoint').send(body);
  const get = (caller: TestMerchant = merchant) => api.as(caller).get('/v1/webhook-endpoint');
  const rotate = (caller: TestMerchant = merchant) => api.as(caller).post('/v1/webhook-endpoint/rotate-secret');

  it('answers 404 resource_not_found to GET before any PUT', async () => {
    expectApiError(await get(), { status: 404, code: 'resource_not_found' });
  });

  it('stores the url and answers it with the secret and a healthy record to PUT and GET alike', async () => {
    const saved = await put({ url: receiver.url });
    expect(saved.status).toBe(200);
    expectRequestId(saved);
    expect(saved.body).toEqual({
      data: {
        url: receiver.url,
        signingSecret: expect.stringMatching(SIGNING_SECRET),
        livemode: false,
        ...HEALTHY,
      },
    });

    const read = await get().expect(200);
    expect(read.body).toEqual(saved.body);
  });

  it('keeps the signing secret when the url changes', async () => {
    const first = await put({ url: receiver.url }).expect(200);
    const second = await put({ url: 'https://shop.example/hooks/v2' }).expect(200);
    expect(second.body.data).toEqual({
      url: 'https://shop.example/hooks/v2',
      signingSecret: first.body.data.signingSecret,
      livemode: false,
      ...HEALTHY,
    });
    await expect(get()).resolves.toMatchObject({ status: 200, body: second.body });
  });

  it('gives each merchant its own secret', async () => {
    const other = await api.merchantWithKey('test');
    const mine = await put({ url: receiver.url }).expect(200);
    const theirs = await put({ url: receiver.url }, other).expect(200);
    expect(theirs.body.data.signingSecret).not.toBe(mine.body.data.signingSecret);
  });

  it('rotates the secret: the next delivery verifies with the new secret and not with the old one', async () => {
    const before = await put({ url: receiver.url }).expect(200);
    const oldSecret = before.body.data.signingSecret as string;

    const rotated = await rotate().expect(200);
    expect(rotated.body).toEqual({
      data: { url: receiver.url, signingSecret: expect.stringMatching(SIGNING_SECRET), livemode: false, ...HEALTHY },
    });
    const newSecret = rotated.body.data.signingSecret as string;
    expect(newSecret).not.toBe(oldSecret);
    await expect(get()).resolves.toMatchObject({ body: rotated.body });

    const { eventId } = await completedPayment(api, merchant);
    const [delivery] = await pollUntil(
      async () => receiver.forEvent(eventId),
      (deliveries) => deliveries.length === 1,
    );
    expect(signatureCheck(delivery, newSecret)).toBe('valid');
    expect(signatureCheck(delivery, oldSecret)).toBe('signature_mismatch');
  });

  it.each<[string, Record<string, string>]>([
    ['without a Content-Type', {}],
    ['with Content-Type: application/json', { 'Content-Type': 'application/json' }],
  ])('accepts rotate-secret with an empty body %s', async (_description, headers) => {
    await put({ url: receiver.url }).expect(200);
    const rotated = await rotate().set(headers);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.signingSecret).toMatch(SIGNING_SECRET);
  });

  it('answers 404 resource_not_found to rotate-secret before any PUT, and creates nothing', async () => {
    expectApiError(await rotate(), { status: 404, code: 'resource_not_found' });
    expectApiError(await get(), { status: 404, code: 'resource_not_found' });
  });

  it.each<[string, object, { code: string; param: string }]>([
    ['a missing url', {}, { code: 'parameter_missing', param: 'url' }],
    ['an ftp url', { url: 'ftp://shop.example/hooks' }, { code: 'parameter_invalid', param: 'url' }],
    ['a relative url', { url: '/hooks' }, { code: 'parameter_invalid', param: 'url' }],
    ['a url that is not a string', { url: 12345 }, { code: 'parameter_invalid', param: 'url' }],
    [
      'a url with a user name and password',
      { url: 'https://user:secret@shop.example/hooks' },
      { code: 'parameter_invalid', param: 'url' },
    ],
    [
      'a url with a user name alone',
      { url: 'https://user@shop.example/hooks' },
      { code: 'parameter_invalid', param: 'url' },
    ],
    // White space and separators are how text poses as payhook's own where the URL is shown.
    [
      'a url with a space',
      { url: 'https://shop.example/hooks?note=ACTION REQUIRED' },
      { code: 'parameter_invalid', param: 'url' },
    ],
    [
      'a url with a line separator',
      { url: 'https://shop.example/hooks\u2028Sign in' },
      { code: 'parameter_invalid', param: 'url' },
    ],
    [
      'a url with a no-break space',
      { url: 'https://shop.example/\u00a0hooks' },
      { code: 'parameter_invalid', param: 'url' },
    ],
    [
      'a url of 1,021 characters that is over 2,048 once percent-encoded',
      { url: `https://shop.example/${'ㄱ'.repeat(1_000)}` },
      { code: 'parameter_invalid', param: 'url' },
    ],
    [
      'a url over 2,048 characters',
      { url: `https://shop.example/${'a'.repeat(2_048)}` },
      { code: 'parameter_invalid', param: 'url' },
    ],
    [
      'an unknown field',
      { url: 'https://shop.example/hooks', secret: 'mine' },
      { code: 'parameter_unknown', param: 'secret' },
    ],
  ])('refuses %s with 400 and keeps the endpoint as it was', async (_description, body, expected) => {
    const saved = await put({ url: receiver.url }).expect(200);
    expectApiError(await put(body), { status: 400, ...expected });
    await expect(get()).resolves.toMatchObject({ status: 200, body: saved.body });
  });

  it('stores the url as the URL parser writes it: lower-case host, a path of at least /, non-ASCII percent-encoded', async () => {
    await expect(put({ url: 'https://Shop.EXAMPLE' })).resolves.toMatchObject({
      status: 200,
      body: { data: { url: 'https://shop.example/' } },
    });
    const saved = await put({ url: 'https://shop.example/주문/hooks?q=웹훅' }).expect(200);
    expect(saved.body.data.url).toBe('https://shop.example/%EC%A3%BC%EB%AC%B8/hooks?q=%EC%9B%B9%ED%9B%85');
    await expect(get()).resolves.toMatchObject({ status: 200, body: { data: { url: saved.body.data.url } } });
  });

  it('accepts a url of exactly 2,048 characters', async () => {
    const url = `https://shop.example/${'a'.repeat(2_048 - 'https://shop.example/'.length)}`;
    expect(url).toHaveLength(2_048);
    await expect(put({ url })).resolves.toMatchObject({ status: 200, body: { data: { url } } });
  });

  it('keeps the test and live endpoints of one merchant apart', async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const test = { ...live, ...(await api.issueKey(live.merchantId, 'test')) };
    expectApiError(await get(live), { status: 404, code: 'resource_not_found' });

    const liveSaved = await put({ url: 'https://shop.example/live-hooks' }, live).expect(200);
    expect(liveSaved.body.data).toMatchObject({ url: 'https://shop.example/live-hooks', livemode: true });
    expectApiError(await get(test), { status: 404, code: 'resource_not_found' });

    const testSaved = await put({ url: receiver.url }, test).expect(200);
    expect(testSaved.body.data).toMatchObject({ url: receiver.url, livemode: false });
    expect(testSaved.body.data.signingSecret).not.toBe(liveSaved.body.data.signingSecret);

    // Rotating one mode's secret leaves the other's alone.
    await rotate(test).expect(200);
    await expect(get(live)).resolves.toMatchObject({ status: 200, body: liveSaved.body });
  });
});

/**
 * Private webhook targets only with WEBHOOK_ALLOW_PRIVATE_URLS=true (or local mode),
 * whatever NODE_ENV says; an address that is private on its face is refused already at PUT.
 */
describe('webhook endpoint without WEBHOOK_ALLOW_PRIVATE_URLS, outside production', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    // An empty value is unset: the default applies, as on a developer's machine with NODE_ENV unset.
    api = await PaymentsApiHarness.start({ WEBHOOK_ALLOW_PRIVATE_URLS: '', NODE_ENV: 'development' });
    merchant = await api.merchantWithKey('test');
  });
  afterAll(() => api.stop());

  it.each([
    'http://127.0.0.1:3001/metrics',
    'https://localhost/hooks',
    'https://api.localhost/hooks',
    'https://10.1.2.3/hooks',
    'https://192.168.0.10/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]:8443/hooks',
    'https://[::ffff:127.0.0.1]/hooks',
    'https://2130706433/hooks',
  ])('refuses %s with 400 parameter_invalid on url, and stores nothing', async (url) => {
    const response = await api.as(merchant).put('/v1/webhook-endpoint').send({ url });
    expectApiError(response, { status: 400, code: 'parameter_invalid', param: 'url' });
    await api.as(merchant).get('/v1/webhook-endpoint').expect(404);
  });

  it('accepts a public https url', async () => {
    await api.as(merchant).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/hooks' }).expect(200);
  });
});
