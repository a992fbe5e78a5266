import { CONSOLE_PASSWORD, approvedMerchant, csrfFieldOf, postLogin, setCookie } from '../support/console-client';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';

jest.setTimeout(60_000);

/**
 * Issue 25 item 12: the payment screen and the console login take only a CSRF token the server
 * signed for that browser and that page. Before, any value the client set in both the cookie and the
 * field passed (a cookie planted from a sibling host made a login CSRF, or a press of a payment's
 * button, possible).
 */
describe('signed CSRF tokens on the payment screen and the console login', () => {
  /** The same arbitrary value in the cookie and the field, shaped like a genuine cookie value. */
  const forged = 'Zm9yZ2VkLXZhbHVlLW9mLTMyLWNoYXJz';

  async function testPayment(api: PaymentsApiHarness, merchant: TestMerchant): Promise<{ id: string; path: string }> {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', `csrf-${Math.random()}`)
      .send(paymentBody())
      .expect(201);
    return { id: created.body.data.id, path: new URL(created.body.data.payUrl as string).pathname };
  }

  const paymentStatus = async (api: PaymentsApiHarness, id: string) =>
    (await api.sql<{ status: string }>('SELECT status FROM payments WHERE id = $1', [id]))[0].status;

  describe('on an http site', () => {
    let api: PaymentsApiHarness;
    let merchant: TestMerchant;

    beforeAll(async () => {
      api = await PaymentsApiHarness.start({ TRUST_PROXY: 'loopback' });
      merchant = await api.merchantWithKey('test');
    });
    afterAll(() => api?.stop());

    it('refuses a forged pair and a token of another payment on the payment screen, and takes a genuine one', async () => {
      const payment = await testPayment(api, merchant);
      const other = await testPayment(api, merchant);
      const forgedPair = [
        api.http().post(`${payment.path}/complete`).set('Cookie', `payhook_csrf=${forged}`).type('form'),
        api.http().post(`${payment.path}/vouchers`).set('Cookie', `payhook_csrf=${forged}`).type('form'),
      ];
      for (const attempt of forgedPair) {
        await expect(attempt.send({ csrf: forged, pins: '1234-5678-9012-3456' })).resolves.toMatchObject({
          status: 403,
        });
      }

      // A genuine token of the other payment's page, with its genuine cookie.
      const otherPage = await api.http().get(other.path).expect(200);
      const cookie = setCookie(otherPage, 'payhook_csrf')!.split(';')[0];
      const otherToken = csrfFieldOf(otherPage.text);
      await api
        .http()
        .post(`${payment.path}/complete`)
        .set('Cookie', cookie)
        .type('form')
        .send({ csrf: otherToken })
        .expect(403);
      expect(await paymentStatus(api, payment.id)).toBe('pending');

      // The browser's own token for this page.
      const page = await api.http().get(payment.path).set('Cookie', cookie).expect(200);
      await api
        .http()
        .post(`${payment.path}/complete`)
        .set('Cookie', cookie)
        .type('form')
        .send({ csrf: csrfFieldOf(page.text) })
        .expect(303);
      expect(await paymentStatus(api, payment.id)).toBe('completed');
    });

    it('refuses a forged pair on the console login, and takes a genuine one', async () => {
      const owner = await approvedMerchant(api);
      const form = { email: owner.email, password: CONSOLE_PASSWORD };
      const refused = await api
        .http()
        .post('/console/login')
        .set('Cookie', `payhook_console_login=${forged}`)
        .set('X-Forwarded-For', '203.0.113.80')
        .type('form')
        .send({ ...form, csrf: forged })
        .expect(403);
      expect(setCookie(refused, 'payhook_console')).toBeUndefined();
      expect(await api.sql('SELECT 1 FROM console_sessions WHERE merchant_id = $1', [owner.merchantId])).toHaveLength(
        0,
      );

      const page = await api.http().get('/console/login').expect(200);
      await api
        .http()
        .post('/console/login')
        .set('Cookie', setCookie(page, 'payhook_console_login')!.split(';')[0])
        .set('X-Forwarded-For', '203.0.113.80')
        .type('form')
        .send({ ...form, csrf: csrfFieldOf(page.text) })
        .expect(303);
    });
  });

  describe('on an https site', () => {
    let api: PaymentsApiHarness;

    beforeAll(async () => {
      api = await PaymentsApiHarness.start({ BASE_URL: 'https://api.test', PAY_URL: 'https://pay.test' });
    });
    afterAll(() => api?.stop());

    it('keeps the browser value in __Host- cookies, which no other host can set, and a plain-named one does not count', async () => {
      const payment = await testPayment(api, await api.merchantWithKey('test'));
      const page = await api.http().get(payment.path).expect(200);
      const hostCookie = setCookie(page, '__Host-payhook_csrf')!;
      expect(hostCookie).toMatch(/; Path=\/;/);
      expect(hostCookie).toMatch(/; Secure/);
      expect(hostCookie).toMatch(/; HttpOnly/);
      expect(hostCookie).toMatch(/SameSite=Strict/);
      expect(hostCookie).not.toMatch(/Domain=/i);
      const value = hostCookie.split(';')[0].split('=')[1];
      const csrf = csrfFieldOf(page.text);
      await api
        .http()
        .post(`${payment.path}/complete`)
        .set('Cookie', `payhook_csrf=${value}`)
        .type('form')
        .send({ csrf })
        .expect(403);
      await api
        .http()
        .post(`${payment.path}/complete`)
        .set('Cookie', `__Host-payhook_csrf=${value}`)
        .type('form')
        .send({ csrf })
        .expect(303);

      const login = await api.http().get('/console/login').expect(200);
      expect(setCookie(login, '__Host-payhook_console_login')).toMatch(/; Path=\/;.*Secure/);
      expect(setCookie(login, 'payhook_console_login')).toBeUndefined();
    });

    it('keeps the console session in a __Host- cookie too: a plain-named one opens nothing', async () => {
      const merchant = await approvedMerchant(api);
      const signedIn = await postLogin(api, merchant.email, CONSOLE_PASSWORD, 303);
      const session = setCookie(signedIn, '__Host-payhook_console')!;
      expect(session).toMatch(/; Path=\/;/);
      expect(session).toMatch(/; HttpOnly/);
      expect(session).toMatch(/; Secure/);
      expect(session).not.toMatch(/Domain=/i);
      expect(setCookie(signedIn, 'payhook_console')).toBeUndefined();
      const token = session.split(';')[0].split('=')[1];
      await api.http().get('/console/payments').set('Cookie', `__Host-payhook_console=${token}`).expect(200);
      await api
        .http()
        .get('/console/payments')
        .set('Cookie', `payhook_console=${token}`)
        .expect(303)
        .expect('Location', '/console/login');
    });
  });
});
