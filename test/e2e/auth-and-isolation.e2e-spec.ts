import { expectApiError, ISO_MILLIS_UTC, rowCounts } from '../support/api-expectations';
import { ADMIN_TOKEN, PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient } from '../support/payments-client';
import { pollUntil } from '../support/poll-until';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const wellFormedKey = (mode: 'test' | 'live') =>
  `svc_${mode}_${Array.from({ length: 32 }, () => BASE62[Math.floor(Math.random() * 62)]).join('')}`;

/** Who may call, and what each key can see. */
describe('API keys, modes and merchant isolation', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
  });

  const endpoints = (authorization?: string) => {
    const withAuth = <T extends { set(name: string, value: string): T }>(test: T) =>
      authorization === undefined ? test : test.set('Authorization', authorization);
    return {
      create: () => withAuth(api.http().post('/v1/payments').set('Idempotency-Key', 'auth-test')).send(paymentBody()),
      list: () => withAuth(api.http().get('/v1/payments')),
      get: () => withAuth(api.http().get('/v1/payments/pay_000000000000000000000000')),
    };
  };

  it.each<[string, string | undefined]>([
    ['no Authorization header', undefined],
    ['a Basic header', 'Basic x'],
    ['"Bearer" alone', 'Bearer'],
    ['"Bearer " with an empty token', 'Bearer '],
    ['two tokens', 'Bearer a b'],
  ])('refuses %s with 401 authentication_required', async (_description, authorization) => {
    const calls = endpoints(authorization);
    for (const call of [calls.create, calls.list, calls.get]) {
      expectApiError(await call(), { status: 401, code: 'authentication_required' });
    }
  });

  it.each<[string, () => string]>([
    ['an unknown well-formed test key', () => wellFormedKey('test')],
    ['an unknown well-formed live key', () => wellFormedKey('live')],
    ['a garbage token', () => 'garbage-token'],
    ['a key with one character changed', () => merchant.key.slice(0, -1) + (merchant.key.endsWith('A') ? 'B' : 'A')],
    ['the ADMIN_TOKEN', () => ADMIN_TOKEN],
  ])('refuses %s with 401 api_key_invalid', async (_description, token) => {
    const calls = endpoints(`Bearer ${token()}`);
    for (const call of [calls.create, calls.list, calls.get]) {
      expectApiError(await call(), { status: 401, code: 'api_key_invalid' });
    }
  });

  it.each(['review', 'integrating'])(
    'refuses a live key of a merchant in %s with 403 live_mode_locked and stores nothing',
    async (status) => {
      const locked = await api.merchantWithKey('live');
      await api.sql('UPDATE merchants SET status = $2 WHERE id = $1', [locked.merchantId, status]);
      const calls = endpoints(`Bearer ${locked.key}`);
      for (const call of [calls.create, calls.list, calls.get]) {
        expectApiError(await call(), { status: 403, code: 'live_mode_locked' });
      }
      await expect(rowCounts(api, locked.merchantId)).resolves.toEqual({ payments: 0, idempotencyKeys: 0 });
      // The same merchant's test key works.
      const { key: testKey } = await api.issueKey(locked.merchantId, 'test');
      await expect(paymentsClient(api, testKey).list()).resolves.toMatchObject({ status: 200 });
    },
  );

  it('keeps test and live payments apart: neither key sees the other mode', async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const { key: testKey } = await api.issueKey(live.merchantId, 'test');
    const liveClient = paymentsClient(api, live.key);
    const testClient = paymentsClient(api, testKey);
    const livePayment = (await liveClient.create(paymentBody())).body.data;
    const testPayment = (await testClient.create(paymentBody())).body.data;

    expectApiError(await testClient.get(livePayment.id), { status: 404, code: 'resource_not_found' });
    expectApiError(await liveClient.get(testPayment.id), { status: 404, code: 'resource_not_found' });

    const testList = await testClient.list();
    expect(testList.body.data.map((payment: { id: string }) => payment.id)).toEqual([testPayment.id]);
    const liveList = await liveClient.list();
    expect(liveList.body.data.map((payment: { id: string }) => payment.id)).toEqual([livePayment.id]);

    await expect(liveClient.get(livePayment.id)).resolves.toMatchObject({
      status: 200,
      body: { data: { livemode: true } },
    });
    await expect(testClient.get(testPayment.id)).resolves.toMatchObject({
      status: 200,
      body: { data: { livemode: false } },
    });
    expect(testList.body.data[0].livemode).toBe(false);
    expect(liveList.body.data[0].livemode).toBe(true);
  });

  it("keeps merchants apart: merchant B gets 404 for merchant A's payment and does not list it", async () => {
    const a = paymentsClient(api, merchant.key);
    const other = await api.merchantWithKey('test');
    const b = paymentsClient(api, other.key);
    const aPayment = (await a.create(paymentBody({ customerId: 'shared-customer' }))).body.data;

    expectApiError(await b.get(aPayment.id), { status: 404, code: 'resource_not_found' });
    await expect(b.list()).resolves.toMatchObject({ status: 200, body: { data: [] } });
    await expect(b.list({ orderId: aPayment.orderId })).resolves.toMatchObject({ body: { data: [] } });
    await expect(b.list({ customerId: 'shared-customer' })).resolves.toMatchObject({ body: { data: [] } });
    await expect(a.get(aPayment.id)).resolves.toMatchObject({ status: 200 });
  });

  it('refuses a revoked key within 5 s and answers the revoke with the key, without its secret', async () => {
    const payments = paymentsClient(api, merchant.key);
    const { key: otherKey } = await api.issueKey(merchant.merchantId, 'test');
    // Used just before the revoke, so any cache of the key is warm.
    await expect(payments.list()).resolves.toMatchObject({ status: 200 });

    const revoked = await api.admin().delete(`/admin/v1/api-keys/${merchant.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({
      id: merchant.keyId,
      mode: 'test',
      revokedAt: expect.stringMatching(ISO_MILLIS_UTC),
    });
    expect(revoked.body.data).not.toHaveProperty('key');
    expect(revoked.text).not.toContain(merchant.key);
    expect(revoked.text).not.toContain(merchant.key.slice(9, -4));

    const refused = await pollUntil(
      () => payments.list(),
      (response) => response.status !== 200,
    );
    expectApiError(refused, { status: 401, code: 'api_key_invalid' });
    expectApiError(await payments.create(paymentBody()), { status: 401, code: 'api_key_invalid' });
    // The merchant's other key keeps working.
    await expect(paymentsClient(api, otherKey).list()).resolves.toMatchObject({ status: 200 });
  });

  it('answers 404 resource_not_found when revoking an unknown key', async () => {
    const response = await api.admin().delete('/admin/v1/api-keys/key_000000000000000000000000');
    expectApiError(response, { status: 404, code: 'resource_not_found' });
  });
});
