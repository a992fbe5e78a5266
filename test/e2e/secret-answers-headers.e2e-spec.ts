import { ConsoleClient, approvedMerchant } from '../support/console-client';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';

jest.setTimeout(60_000);

/** Issue 25, info: answers that carry a secret are never stored by a cache; an https site sends HSTS. */
describe('headers of answers with secrets, and HSTS', () => {
  describe('on an http site', () => {
    let api: PaymentsApiHarness;

    beforeAll(async () => {
      api = await PaymentsApiHarness.start();
    });
    afterAll(() => api?.stop());

    it('sends Cache-Control: no-store with every signing secret, new API key and test voucher PIN', async () => {
      const merchant = await approvedMerchant(api);
      const issued = await api
        .admin()
        .post(`/admin/v1/merchants/${merchant.merchantId}/api-keys`)
        .send({ mode: 'test' })
        .expect(201);
      const key = { key: issued.body.data.key as string };
      const put = await api.as(key).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/h' }).expect(200);
      const rotated = await api.as(key).post('/v1/webhook-endpoint/rotate-secret').expect(200);
      expect(rotated.body.data.signingSecret).toMatch(/^whsec_/);
      const answers = {
        'new API key': issued,
        'PUT endpoint': put,
        'GET endpoint': await api.as(key).get('/v1/webhook-endpoint').expect(200),
        'rotate-secret': rotated,
        'test voucher': await api.as(key).post('/v1/test-helpers/vouchers').send({ faceValue: 10_000 }).expect(201),
      };
      for (const [answer, response] of Object.entries(answers)) {
        const cacheControl = response.headers['cache-control'];
        expect({ answer, cacheControl }).toEqual({ answer, cacheControl: 'no-store' });
      }
      // The console page that shows the secret.
      const console = await ConsoleClient.login(api, merchant.email);
      const page = await console.get('/console/developers?mode=test').expect(200);
      expect(page.text).toContain(rotated.body.data.signingSecret);
      expect(page.headers['cache-control']).toBe('no-store');
      // No HSTS on a plain http site: it would be ignored, and wrong for a local machine.
      expect(page.headers['strict-transport-security']).toBeUndefined();
    });
  });

  describe('on an https site', () => {
    let api: PaymentsApiHarness;

    beforeAll(async () => {
      api = await PaymentsApiHarness.start({ BASE_URL: 'https://api.test' });
    });
    afterAll(() => api?.stop());

    it('sends Strict-Transport-Security on every answer: API, errors, pages', async () => {
      const merchant = await api.merchantWithKey('test');
      const created = await api
        .as(merchant)
        .post('/v1/payments')
        .set('Idempotency-Key', `hsts-${Math.random()}`)
        .send(paymentBody())
        .expect(201);
      const payScreen = new URL(created.body.data.payUrl as string).pathname;
      const answers = {
        'API answer': created,
        'API error': await api.http().get('/v1/payments').expect(401),
        'payment screen': await api.http().get(payScreen).expect(200),
        'console login': await api.http().get('/console/login').expect(200),
        'unknown path': await api.http().get('/no-such-page').expect(404),
      };
      for (const [answer, response] of Object.entries(answers)) {
        const hsts = response.headers['strict-transport-security'];
        expect({ answer, hsts }).toEqual({ answer, hsts: 'max-age=31536000' });
      }
    });
  });
});
