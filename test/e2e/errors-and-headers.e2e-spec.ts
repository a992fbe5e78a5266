import type { Response } from 'supertest';
import {
  expectApiError,
  expectNoStackTrace,
  expectRequestId,
  idemKey,
  ISO_MILLIS_UTC,
} from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';

/** Request-Id on every response, one error shape, never a stack trace. */
describe('Error bodies and response headers', () => {
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

  // `GET /` is the home page for a browser (home-and-guide.e2e-spec.ts); a JSON client gets the JSON 404.
  it.each<[string, string, string | undefined]>([
    ['GET', '/v1/nope', undefined],
    ['GET', '/', 'application/json'],
    ['POST', '/v1/payments/pay_000000000000000000000000/refund', undefined],
    ['GET', '/admin/v1/nothing-here', undefined],
    ['PUT', '/v1/no-such-resource', undefined],
  ])('answers an unknown route %s %s (Accept: %s) with 404 resource_not_found', async (method, path, accept) => {
    const http = api.http();
    const verb = method.toLowerCase() as 'get' | 'post' | 'put';
    const request = http[verb](path).set('Authorization', `Bearer ${merchant.key}`);
    const response = await (accept ? request.set('Accept', accept) : request);
    expectApiError(response, { status: 404, code: 'resource_not_found' });
    expect(response.body.error.message).not.toMatch(/Cannot (GET|POST|PUT)/);
  });

  it('puts a Request-Id on every response, success or error, each one different', async () => {
    const body = paymentBody();
    const key = idemKey();
    const created = await payments.create(body, key);
    const responses: Response[] = [
      created,
      await payments.create(body, key),
      await payments.create({ ...body, amount: 1 }, key),
      await payments.get(created.body.data.id),
      await payments.list(),
      await payments.get('pay_000000000000000000000000'),
      await payments.create(paymentBody({ amount: 'x' })),
      await payments.createRaw('{'),
      await payments.createRaw('x', idemKey(), 'text/plain'),
      await payments.create(paymentBody({ customerId: 'c'.repeat(70 * 1024) })),
      await payments.create({ ...body, amount: 2 }),
      await api.http().get('/v1/payments'),
      await api.http().get('/v1/payments').set('Authorization', 'Bearer svc_test_00000000000000000000000000000000'),
      await api.http().get('/v1/unknown'),
      await api.http().get('/admin/v1/merchants/mch_000000000000000000000000'),
      await api.admin().get(`/admin/v1/merchants/${merchant.merchantId}`),
      await api.http().get('/health'),
    ];
    expect(responses.map((response) => response.status)).toEqual([
      201, 201, 422, 200, 200, 404, 400, 400, 415, 413, 409, 401, 401, 404, 401, 200, 200,
    ]);
    for (const response of responses) {
      expectRequestId(response);
      expectNoStackTrace(response);
      if (response.status >= 400) expect(response.body.error.requestId).toBe(response.headers['request-id']);
    }
    const ids = responses.map((response) => response.headers['request-id']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never shows a stack trace or an exception name in an error body', async () => {
    const errors = await Promise.all([
      payments.createRaw('{"orderId": "x", "amount": 1e999999999, "currency": "KRW"'),
      payments.createRaw('[1, 2, 3]'),
      payments.createRaw('"just a string"'),
      payments.createRaw('null'),
      payments.create(paymentBody({ orderId: { $ne: null } })),
      payments.create(paymentBody({ amount: 1e308 })),
      payments.create(paymentBody({ returnUrl: 'http://[::1' })),
      payments.list({ createdFrom: '9999-99-99' }),
      payments.list({ cursor: '%%%' }),
      payments.get('%00'),
    ]);
    for (const response of errors) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(Object.keys(response.body)).toEqual(['error']);
      expectApiError(response, { status: response.status, code: response.body.error.code });
      expect(response.text).not.toMatch(/node_modules|\.ts:\d+|\/work\//);
    }
  });

  it('answers a JSON array or scalar body with a 400 error, never a 500', async () => {
    for (const text of ['[]', '42', '"x"', 'true', 'null']) {
      const response = await payments.createRaw(text);
      expect(response.status).toBe(400);
      expect(['parameter_invalid', 'body_invalid_json']).toContain(response.body.error.code);
      expectApiError(response, { status: 400, code: response.body.error.code });
    }
  });

  it('writes timestamps as ISO 8601 UTC with milliseconds and Z', async () => {
    const created = await payments.create(paymentBody());
    expect(created.body.data.expiresAt).toMatch(ISO_MILLIS_UTC);
    const got = await payments.get(created.body.data.id);
    expect(got.body.data.createdAt).toMatch(ISO_MILLIS_UTC);
    expect(got.body.data.expiresAt).toMatch(ISO_MILLIS_UTC);
    const merchantView = await api.admin().get(`/admin/v1/merchants/${merchant.merchantId}`);
    expect(merchantView.body.data.createdAt).toMatch(ISO_MILLIS_UTC);
  });
});
