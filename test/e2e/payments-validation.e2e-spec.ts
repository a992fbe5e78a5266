import { expectApiError, idemKey, rowCounts } from '../support/api-expectations';
import { ADMIN_TOKEN, PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';

/** What POST /v1/payments refuses, and that a refusal leaves nothing behind. */
describe('POST /v1/payments validation', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  let payments: PaymentsClient;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
    payments = paymentsClient(api, merchant.key);
  });

  const expectNothingStored = async () => {
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 0, idempotencyKeys: 0 });
  };

  const LONG_URL_PREFIX = 'https://shop.example/';

  it.each<[string, string, unknown]>([
    ['orderId', 'with characters outside [A-Za-z0-9_.:-]', 'order #1!'],
    ['orderId', 'with a slash', 'order/1'],
    ['orderId', 'of 65 characters', 'o'.repeat(65)],
    ['orderId', 'empty', ''],
    ['orderId', 'as a number', 12345],
    ['customerId', 'of 129 characters', 'c'.repeat(129)],
    ['customerId', 'with a control character', 'customer\u0007one'],
    ['customerId', 'with a line break', 'customer\none'],
    ['customerId', 'empty', ''],
    ['customerId', 'as a number', 42],
    ['amount', 'as the string "15000"', '15000'],
    ['amount', 'as a fraction 1.5', 1.5],
    ['amount', 'negative -1', -1],
    ['amount', 'zero', 0],
    ['amount', 'above 10,000,000,000', 10_000_000_001],
    ['amount', 'as a boolean', true],
    ['currency', '"USD"', 'USD'],
    ['currency', 'lower case "krw"', 'krw'],
    ['returnUrl', 'with scheme ftp', 'ftp://x'],
    ['returnUrl', 'relative', '/return?from=payhook'],
    ['returnUrl', 'without a scheme', 'shop.example/return'],
    ['returnUrl', 'of 2,049 characters', LONG_URL_PREFIX + 'a'.repeat(2049 - LONG_URL_PREFIX.length)],
    ['returnUrl', 'with scheme javascript', 'javascript:alert(1)'],
    ['returnUrl', 'without // after https:', 'https:shop.example/return'],
    ['returnUrl', 'with a single / after http:', 'http:/shop.example/return'],
    ['returnUrl', 'without a host', 'https://'],
  ])('refuses %s %s with 400 parameter_invalid naming the field', async (field, _description, value) => {
    const response = await payments.create(paymentBody({ [field]: value }));
    expectApiError(response, { status: 400, code: 'parameter_invalid', param: field });
    await expectNothingStored();
  });

  it.each(['orderId', 'customerId', 'amount', 'currency', 'returnUrl'])(
    'refuses a body without %s with 400 parameter_missing naming the field',
    async (field) => {
      const body = paymentBody();
      delete body[field];
      const response = await payments.create(body);
      expectApiError(response, { status: 400, code: 'parameter_missing', param: field });
      await expectNothingStored();
    },
  );

  it('refuses an unknown field with 400 parameter_unknown naming it', async () => {
    const response = await payments.create(paymentBody({ description: 'a gift' }));
    expectApiError(response, { status: 400, code: 'parameter_unknown', param: 'description' });
    await expectNothingStored();
  });

  it('refuses an http returnUrl with a live key (https only) but accepts https', async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const livePayments = paymentsClient(api, live.key);
    const refused = await livePayments.create(paymentBody({ returnUrl: 'http://shop.example/return' }));
    expectApiError(refused, { status: 400, code: 'parameter_invalid', param: 'returnUrl' });
    await expect(rowCounts(api, live.merchantId)).resolves.toEqual({ payments: 0, idempotencyKeys: 0 });

    const accepted = await livePayments.create(paymentBody({ returnUrl: 'https://shop.example/return' }));
    expect(accepted.status).toBe(201);
  });

  it('refuses a body that is not JSON with 400 body_invalid_json', async () => {
    const truncated = await payments.createRaw('{"orderId": "order-1", "amount": ');
    expectApiError(truncated, { status: 400, code: 'body_invalid_json' });
    const trailingComma = await payments.createRaw(`${JSON.stringify(paymentBody()).slice(0, -1)},}`);
    expectApiError(trailingComma, { status: 400, code: 'body_invalid_json' });
    await expectNothingStored();
  });

  it('judges the caller before the body: a body it cannot take is 401 without a valid key, 400 or 415 with one', async () => {
    const post = (path: string, authorization: string | null, text: string, contentType = 'application/json') => {
      const request = api.http().post(path).set('Idempotency-Key', idemKey()).set('Content-Type', contentType);
      return (authorization === null ? request : request.set('Authorization', authorization)).send(text);
    };
    const unknownKey = `Bearer svc_test_${'x'.repeat(40)}`;
    const merchantKey = `Bearer ${merchant.key}`;
    expectApiError(await post('/v1/payments', null, '{"orderId":'), { status: 401, code: 'authentication_required' });
    expectApiError(await post('/v1/payments', unknownKey, '{"orderId":'), { status: 401, code: 'api_key_invalid' });
    expectApiError(await post('/v1/payments', unknownKey, 'hello', 'text/plain'), {
      status: 401,
      code: 'api_key_invalid',
    });
    expectApiError(await post('/v1/payments', merchantKey, '{"orderId":'), { status: 400, code: 'body_invalid_json' });
    expectApiError(await post('/v1/payments', merchantKey, 'hello', 'text/plain'), {
      status: 415,
      code: 'unsupported_media_type',
    });
    await expectNothingStored();
    // The operator API alike.
    expectApiError(await post('/admin/v1/merchants', 'Bearer wrong-token', '{"name":'), {
      status: 401,
      code: 'api_key_invalid',
    });
    expectApiError(await post('/admin/v1/merchants', `Bearer ${ADMIN_TOKEN}`, '{"name":'), {
      status: 400,
      code: 'body_invalid_json',
    });
  });

  it('refuses a body over 64 KiB with 413 payload_too_large', async () => {
    const response = await payments.create(paymentBody({ customerId: 'c'.repeat(65 * 1024) }));
    expectApiError(response, { status: 413, code: 'payload_too_large' });
    await expectNothingStored();
  });

  it('refuses a text/plain body with 415 unsupported_media_type', async () => {
    const response = await payments.createRaw(JSON.stringify(paymentBody()), idemKey(), 'text/plain');
    expectApiError(response, { status: 415, code: 'unsupported_media_type' });
    const form = await payments.createRaw('orderId=o-1&amount=15000', idemKey(), 'application/x-www-form-urlencoded');
    expectApiError(form, { status: 415, code: 'unsupported_media_type' });
    await expectNothingStored();
  });

  it('leaves no payment and no idempotency key behind after a batch of invalid requests', async () => {
    const before = await rowCounts(api, merchant.merchantId);
    const answers = await Promise.all([
      payments.create(paymentBody({ amount: '15000' })),
      payments.create(paymentBody({ currency: 'USD' })),
      payments.create(paymentBody({ orderId: 'o'.repeat(65) })),
      payments.create(paymentBody({ returnUrl: 'ftp://x' })),
      payments.create(paymentBody({ unknown: true })),
      payments.create({ orderId: 'only-order' }),
      payments.createRaw('{not json'),
      payments.createRaw(JSON.stringify(paymentBody()), idemKey(), 'text/plain'),
      payments.create(paymentBody({ customerId: 'c'.repeat(70 * 1024) })),
      api.http().post('/v1/payments').set('Authorization', `Bearer ${merchant.key}`).send(paymentBody()),
      api
        .http()
        .post('/v1/payments')
        .set('Authorization', `Bearer ${merchant.key}`)
        .set('Idempotency-Key', 'k'.repeat(256))
        .send(paymentBody()),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400, 400, 415, 413, 400, 400]);
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual(before);
    await expectNothingStored();
  });

  it.each<[string, (client: PaymentsClient, key: string) => Promise<{ status: number }>]>([
    ['parameter_invalid', (client, key) => client.create(paymentBody({ amount: -1 }), key)],
    ['parameter_missing', (client, key) => client.create({ orderId: 'o-1' }, key)],
    ['parameter_unknown', (client, key) => client.create(paymentBody({ extra: 1 }), key)],
    ['body_invalid_json', (client, key) => client.createRaw('{"orderId":', key)],
    ['unsupported_media_type', (client, key) => client.createRaw('hello', key, 'text/plain')],
    ['payload_too_large', (client, key) => client.create(paymentBody({ customerId: 'c'.repeat(70 * 1024) }), key)],
  ])('does not remember a key whose request was refused with %s: a valid body then gets 201', async (_code, refuse) => {
    const key = idemKey();
    const refused = await refuse(payments, key);
    expect(refused.status).toBeGreaterThanOrEqual(400);

    const created = await payments.create(paymentBody(), key);
    expect(created.status).toBe(201);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 1, idempotencyKeys: 1 });
  });

  it('refuses a key given twice with 400 parameter_invalid naming it, and stores nothing', async () => {
    const body = JSON.stringify(paymentBody()).replace(/}$/, ',"amount":5}');
    expectApiError(await payments.createRaw(body), { status: 400, code: 'parameter_invalid', param: 'amount' });
    await expectNothingStored();
  });

  it('refuses a body nested 30,000 arrays deep with a 400 in the one error shape, and stores nothing', async () => {
    const deep = '['.repeat(30_000) + ']'.repeat(30_000);
    const body = JSON.stringify(paymentBody()).replace(/}$/, `,"metadata":${deep}}`);
    expectApiError(await payments.createRaw(body), { status: 400, code: 'parameter_invalid' });
    await expectNothingStored();
  });
});
