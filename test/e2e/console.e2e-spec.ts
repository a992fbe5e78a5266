import { createHash } from 'node:crypto';
import {
  CONSOLE_PASSWORD,
  ConsoleClient,
  approvedMerchant,
  csrfFieldOf,
  postLogin,
  setCookie,
} from '../support/console-client';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { timeFor } from '../support/time-budget';

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

describe('merchant console /console', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    // Failed sign-ins are counted per client address: the tests that fail on purpose send their own.
    api = await PaymentsApiHarness.start({ TRUST_PROXY: 'loopback' });
  });
  afterAll(() => api.stop());

  async function createPayment(merchant: { key: string }, overrides: Record<string, unknown> = {}) {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', `console-${Math.random()}`)
      .send(paymentBody(overrides))
      .expect(201);
    return created.body.data as { id: string; orderId: string };
  }

  /** A completed payment with its payment.completed event. */
  async function completedPayment(merchant: { key: string }) {
    const payment = await createPayment(merchant);
    await api.as(merchant).post(`/v1/test-helpers/payments/${payment.id}/complete`).expect(200);
    const events = await api.as(merchant).get(`/v1/events?paymentId=${payment.id}`).expect(200);
    return { ...payment, eventId: events.body.data[0].id as string };
  }

  const outboxRowsFor = async (eventId: string) =>
    (await api.sql(`SELECT 1 FROM outbox WHERE payload LIKE $1`, [`%${eventId}%`])).length;

  describe('login', () => {
    it('signs in with the console login set at approval and sets a strict session cookie', async () => {
      const merchant = await approvedMerchant(api);
      const response = await postLogin(api, merchant.email.toUpperCase(), CONSOLE_PASSWORD, 303);
      expect(response.headers.location).toBe('/console/payments');
      const cookie = setCookie(response, 'payhook_console')!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\/console(;|$)/);
      expect(cookie).not.toMatch(/Secure/i);
      // Only the token's SHA-256 is stored.
      const token = cookie.split(';')[0].split('=')[1];
      const rows = await api.sql<{ id: string; merchant_id: string; hours: number }>(
        `SELECT id, merchant_id, (extract(epoch FROM expires_at - created_at) / 3600)::int AS hours
         FROM console_sessions WHERE merchant_id = $1`,
        [merchant.merchantId],
      );
      expect(rows).toEqual([
        { id: createHash('sha256').update(token).digest('hex'), merchant_id: merchant.merchantId, hours: 12 },
      ]);
    });

    it('answers a wrong password and an unknown email alike', async () => {
      const merchant = await approvedMerchant(api);
      const wrong = await postLogin(api, merchant.email, 'not the password', 401);
      const unknown = await postLogin(api, `nobody-${Date.now()}@shop.example`, CONSOLE_PASSWORD, 401);
      for (const page of [wrong, unknown]) {
        expect(page.text).toContain('Wrong email or password.');
        expect(setCookie(page, 'payhook_console')).toBeUndefined();
      }
    });

    it('refuses a login form without its CSRF cookie and field', async () => {
      const merchant = await approvedMerchant(api);
      const form = { email: merchant.email, password: CONSOLE_PASSWORD };
      const page = await api.http().get('/console/login').expect(200);
      const cookie = setCookie(page, 'payhook_console_login')!.split(';')[0];
      expect(setCookie(page, 'payhook_console_login')).toMatch(/SameSite=Strict/i);
      const attempts = [
        api
          .http()
          .post('/console/login')
          .type('form')
          .send({ ...form, csrf: csrfFieldOf(page.text) }),
        api.http().post('/console/login').set('Cookie', cookie).type('form').send(form),
        api
          .http()
          .post('/console/login')
          .set('Cookie', cookie)
          .type('form')
          .send({ ...form, csrf: 'forged' }),
      ];
      for (const attempt of attempts) await expect(attempt).resolves.toMatchObject({ status: 403 });
      const sessions = await api.sql(`SELECT 1 FROM console_sessions WHERE merchant_id = $1`, [merchant.merchantId]);
      expect(sessions).toHaveLength(0);
    });

    it(
      'pauses an address after 20 failed sign-ins in 5 minutes, never the account elsewhere',
      async () => {
        const merchant = await approvedMerchant(api);
        const attacker = '198.51.100.20';
        const unknownEmail = `ghost-${Date.now()}@shop.example`;
        // Spread over many emails, known and unknown alike.
        const firstGuessAt = Date.now();
        for (let i = 0; i < 20; i++) {
          await postLogin(api, i % 2 ? merchant.email : `${i}-${unknownEmail}`, `wrong ${i}`, 401, attacker);
        }
        const paused = await postLogin(api, merchant.email, CONSOLE_PASSWORD, 429, attacker);
        expect(paused.text).toContain('Too many failed sign-ins from your network');
        // The pause ends 5 minutes after the failures began, however long a busy machine took to make them.
        const sinceFirstGuess = Math.ceil((Date.now() - firstGuessAt) / 1000);
        expect(Number(paused.headers['retry-after'])).toBeGreaterThanOrEqual(300 - sinceFirstGuess);
        expect(Number(paused.headers['retry-after'])).toBeLessThanOrEqual(300);
        expect(setCookie(paused, 'payhook_console')).toBeUndefined();
        const ghost = await postLogin(api, unknownEmail, CONSOLE_PASSWORD, 429, attacker);
        // The same page, but for the nonce, the form token and the email typed.
        const comparable = (text: string) => text.replace(/nonce="[^"]+"|value="[^"]+"/g, '');
        expect(comparable(ghost.text)).toBe(comparable(paused.text));

        // The merchant, from its own address, signs in with its password as always.
        await postLogin(api, merchant.email, CONSOLE_PASSWORD, 303, '203.0.113.7');

        // Once the window has passed, the address may try again.
        await api.sql(
          `UPDATE auth_failures SET failed_at = failed_at - interval '6 minutes' WHERE scope = 'console' AND client = $1`,
          [attacker],
        );
        await postLogin(api, merchant.email, CONSOLE_PASSWORD, 303, attacker);
      },
      timeFor({ signIn: 25 }),
    );

    it('counts parallel guesses too: never more password checks than the throttle allows', async () => {
      const merchant = await approvedMerchant(api);
      const attacker = '198.51.100.26';
      const wave = async (label: string) => {
        const answers = await Promise.all(
          Array.from({ length: 26 }, (_, i) =>
            postLogin(api, merchant.email, `guess ${label}-${i}`, undefined, attacker),
          ),
        );
        for (const answer of answers.filter(({ status }) => status === 429)) {
          expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        }
        return answers.map(({ status }) => status);
      };
      // An address has one password check in flight at a time (the rest of a wave is refused with 429
      // at once), so it takes waves of parallel guesses to use up the 20 failures the throttle allows.
      const statuses: number[] = [];
      const firstGuessAt = Date.now();
      for (let i = 0; i < 60 && statuses.filter((status) => status === 401).length < 20; i++) {
        statuses.push(...(await wave(String(i))));
      }
      expect(new Set(statuses)).toEqual(new Set([401, 429]));
      expect(statuses.filter((status) => status === 401)).toHaveLength(20);

      // Throttled now: another parallel wave gets no check at all, and the right password waits too.
      expect(new Set(await wave('after'))).toEqual(new Set([429]));
      const paused = await postLogin(api, merchant.email, CONSOLE_PASSWORD, 429, attacker);
      expect(paused.text).toContain('Too many failed sign-ins from your network');
      // The pause ends 5 minutes after the failures began, however long a busy machine took to make them.
      const sinceFirstGuess = Math.ceil((Date.now() - firstGuessAt) / 1000);
      expect(Number(paused.headers['retry-after'])).toBeGreaterThanOrEqual(300 - sinceFirstGuess);
      expect(Number(paused.headers['retry-after'])).toBeLessThanOrEqual(300);
    }, 180_000);

    it('sends pages without a session to the login form', async () => {
      for (const path of ['/console', '/console/payments', '/console/developers', '/console/settings']) {
        const response = await api.http().get(path).expect(303);
        expect(response.headers.location).toMatch(/^\/console\/(login|payments)$/);
      }
      const forged = await api.http().get('/console/payments').set('Cookie', 'payhook_console=forged').expect(303);
      expect(forged.headers.location).toBe('/console/login');
    });

    it('ends the session on logout', async () => {
      const merchant = await approvedMerchant(api);
      const client = await ConsoleClient.login(api, merchant.email);
      await client.post('/console/logout', {}, { csrf: null }).expect(403);
      await client.get('/console/payments').expect(200);

      const response = await client.post('/console/logout').expect(303);
      expect(response.headers.location).toBe('/console/login');
      expect(setCookie(response, 'payhook_console')).toMatch(/Expires=Thu, 01 Jan 1970/);
      const after = await client.get('/console/payments').expect(303);
      expect(after.headers.location).toBe('/console/login');
      const sessions = await api.sql(`SELECT 1 FROM console_sessions WHERE merchant_id = $1`, [merchant.merchantId]);
      expect(sessions).toHaveLength(0);
    });
  });

  describe('pages', () => {
    let merchant: Merchant;
    let client: ConsoleClient;

    beforeAll(async () => {
      merchant = await approvedMerchant(api, { name: 'Seoul <Shop>' });
      client = await ConsoleClient.login(api, merchant.email);
    });

    /** Payment ids linked from a list page, in order. */
    const listed = (html: string) => [...html.matchAll(/href="\/console\/payments\/(pay_\w+)\?/g)].map((m) => m[1]);
    const nextHref = (html: string) => /href="([^"]+)" rel="next"/.exec(html)?.[1].replace(/&amp;/g, '&');

    it('sends the protective headers and no script, and escapes what the merchant controls', async () => {
      const page = await client.get('/console/payments').expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      const csp = page.headers['content-security-policy'];
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).not.toContain('unsafe-inline');
      const nonce = /style-src 'nonce-([^']+)'/.exec(csp)![1];
      expect(page.text).toContain(`<style nonce="${nonce}">`);
      expect(page.text).not.toContain('<script');
      expect(page.text).toContain('Seoul &lt;Shop&gt;');
      expect(page.text).not.toContain('Seoul <Shop>');
    });

    it('shows only the notices it has: a name Object.prototype knows is none', async () => {
      const payment = await createPayment(merchant);
      const pages = ['/console/developers', '/console/team', `/console/payments/${payment.id}?mode=test`];
      for (const page of pages) {
        for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
          const shown = await client.get(`${page}${page.includes('?') ? '&' : '?'}notice=${name}`).expect(200);
          expect({ page, name, notice: /class="notice"/.test(shown.text) }).toEqual({ page, name, notice: false });
        }
      }
      // A notice it has still shows.
      const saved = await client.get('/console/developers?notice=url-saved').expect(200);
      expect(saved.text).toContain('Webhook URL saved.');
    });

    it('redirects /console to the payments and answers unknown pages with a 404 page', async () => {
      const home = await client.get('/console').expect(303);
      expect(home.headers.location).toBe('/console/payments');
      const missing = await client.get('/console/nothing/here').expect(404);
      expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(missing.text).toContain('Not found');
    });

    it('lists payments newest first in won, filters them and pages with a cursor', async () => {
      const shop = await approvedMerchant(api);
      const shopClient = await ConsoleClient.login(api, shop.email);
      const created: { id: string; orderId: string }[] = [];
      for (let i = 0; i < 26; i++) created.push(await createPayment(shop, { amount: 1000 + i }));
      const special = await createPayment(shop, {
        orderId: `special-${Date.now()}`,
        customerId: '김민수',
        amount: 15000,
      });
      await api.as(shop).post(`/v1/test-helpers/payments/${special.id}/complete`).expect(200);

      const first = await shopClient.get('/console/payments').expect(200);
      expect(listed(first.text)).toHaveLength(25);
      expect(listed(first.text)[0]).toBe(special.id);
      expect(first.text).toContain('₩15,000');
      expect(first.text).toContain('₩1,025');
      const second = await shopClient.get(nextHref(first.text)!).expect(200);
      expect(listed(second.text)).toEqual([created[1].id, created[0].id]);
      expect(second.text).toContain('First page');
      expect(nextHref(second.text)).toBeUndefined();

      const byOrder = await shopClient.get(`/console/payments?orderId=${special.orderId}`).expect(200);
      expect(listed(byOrder.text)).toEqual([special.id]);
      const byCustomer = await shopClient
        .get(`/console/payments?customerId=${encodeURIComponent('김민수')}`)
        .expect(200);
      expect(listed(byCustomer.text)).toEqual([special.id]);
      expect(byCustomer.text).toContain('value="김민수"');
      const byStatus = await shopClient.get('/console/payments?status=completed').expect(200);
      expect(listed(byStatus.text)).toEqual([special.id]);

      const badDate = await shopClient.get('/console/payments?createdFrom=2026-02-30').expect(400);
      expect(badDate.text).toContain('must be a date');
      const forged = Buffer.from(JSON.stringify(['2026-11-21T00:00:00.000Z', `pay_${'A'.repeat(24)}`])).toString(
        'base64url',
      );
      const badCursor = await shopClient.get(`/console/payments?cursor=${forged}`).expect(400);
      expect(badCursor.text).toContain('page link is not valid');
    });

    it('shows test mode until the merchant is live, and live payments on the live switch', async () => {
      const shop = await approvedMerchant(api);
      const shopClient = await ConsoleClient.login(api, shop.email);
      const testPayment = await createPayment(shop);
      const page = await shopClient.get('/console/payments').expect(200);
      expect(page.text).toMatch(/<a href="\/console\/payments\?mode=test" aria-current="page">Test<\/a>/);
      expect(listed(page.text)).toEqual([testPayment.id]);
      const live = await shopClient.get('/console/payments?mode=live').expect(200);
      expect(listed(live.text)).toEqual([]);
      expect(live.text).toContain('No live payments match.');
      // Test data says so above everything else; live data does not.
      expect(page.text).toContain('<p class="test-mode" id="test-mode">');
      expect(page.text).toContain('<title>Payments (test mode) · payhook console</title>');
      expect(live.text).not.toContain('id="test-mode"');
      for (const path of [`/console/payments/${testPayment.id}?mode=test`, '/console/settlements?mode=test']) {
        expect((await shopClient.get(path).expect(200)).text).toContain('id="test-mode"');
      }
      expect((await shopClient.get('/console/settlements?mode=live').expect(200)).text).not.toContain('id="test-mode"');

      await api.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [shop.merchantId]);
      const { key: liveKey } = await api.issueKey(shop.merchantId, 'live');
      const livePayment = await createPayment({ key: liveKey });
      const nowLive = await shopClient.get('/console/payments').expect(200);
      expect(listed(nowLive.text)).toEqual([livePayment.id]);
      await shopClient.get(`/console/payments/${livePayment.id}`).expect(200);
      await shopClient.get(`/console/payments/${testPayment.id}`).expect(404);
      await shopClient.get(`/console/payments/${testPayment.id}?mode=test`).expect(200);
    });

    it("never shows another merchant's payments, events or settings", async () => {
      const other = await approvedMerchant(api, { name: 'Other Shop' });
      const theirs = await completedPayment(other);
      const ours = await createPayment(merchant);

      for (const mode of ['test', 'live']) {
        const list = await client.get(`/console/payments?mode=${mode}`).expect(200);
        expect(list.text).not.toContain(theirs.id);
        expect(list.text).not.toContain(theirs.orderId);
        const byOrder = await client.get(`/console/payments?mode=${mode}&orderId=${theirs.orderId}`).expect(200);
        expect(listed(byOrder.text)).toEqual([]);
        const page = await client.get(`/console/payments/${theirs.id}?mode=${mode}`).expect(404);
        expect(page.text).toContain('Not found');
        expect(page.text).not.toContain(theirs.orderId);
      }
      const before = await outboxRowsFor(theirs.eventId);
      await client
        .post(`/console/payments/${theirs.id}/events/${theirs.eventId}/redeliver`, { mode: 'test' })
        .expect(404);
      await client
        .post(`/console/payments/${ours.id}/events/${theirs.eventId}/redeliver`, { mode: 'test' })
        .expect(404);
      expect(await outboxRowsFor(theirs.eventId)).toBe(before);

      await api.as(other).put('/v1/webhook-endpoint').send({ url: 'https://other.example/hooks' }).expect(200);
      const developers = await client.get('/console/developers').expect(200);
      expect(developers.text).not.toContain('other.example');
      expect(developers.text).not.toContain(other.key.slice(-4) + '</code>');
    });

    it('changes nothing for a form without the session CSRF token', async () => {
      const shop = await approvedMerchant(api);
      const shopClient = await ConsoleClient.login(api, shop.email);
      const endpoint = await api.as(shop).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/hooks' });
      const payment = await completedPayment(shop);
      const outboxBefore = await outboxRowsFor(payment.eventId);
      // Another merchant's session token is no better than none.
      const stranger = await ConsoleClient.login(api, merchant.email);
      const forms: [string, Record<string, string>][] = [
        ['/console/developers/webhook-endpoint', { mode: 'test', url: 'https://evil.example/hooks' }],
        ['/console/developers/rotate-secret', { mode: 'test' }],
        [`/console/payments/${payment.id}/events/${payment.eventId}/redeliver`, { mode: 'test' }],
        ['/console/settings', { timeZone: 'America/New_York' }],
        ['/console/developers/integration-tests', {}],
      ];
      for (const [path, form] of forms) {
        for (const csrf of [null, '', 'forged', stranger.csrf, `${shopClient.csrf.slice(1)}x`]) {
          const refused = await shopClient.post(path, form, { csrf }).expect(403);
          expect(refused.text).toContain('Form expired');
        }
      }
      const after = await api.as(shop).get('/v1/webhook-endpoint').expect(200);
      expect(after.body.data).toEqual(endpoint.body.data);
      expect(await outboxRowsFor(payment.eventId)).toBe(outboxBefore);
      const [row] = await api.sql<{ time_zone: string }>(`SELECT time_zone FROM merchants WHERE id = $1`, [
        shop.merchantId,
      ]);
      expect(row.time_zone).toBe('Asia/Seoul');
      const runs = await api.sql(`SELECT 1 FROM integration_tests WHERE merchant_id = $1`, [shop.merchantId]);
      expect(runs).toHaveLength(0);

      // The same forms with the token do their work.
      await shopClient.post(`/console/payments/${payment.id}/events/${payment.eventId}/redeliver`, { mode: 'test' });
      expect(await outboxRowsFor(payment.eventId)).toBe(outboxBefore + 1);
    });

    it('shows every time in the merchant zone, named, across a DST change', async () => {
      const shop = await approvedMerchant(api, { timeZone: 'Asia/Seoul' });
      const shopClient = await ConsoleClient.login(api, shop.email);
      const [early, before, after] = [await createPayment(shop), await createPayment(shop), await createPayment(shop)];
      // 2026-03-08 02:00 in New York is when daylight time starts.
      await api.sql(`UPDATE payments SET created_at = $2 WHERE id = $1`, [early.id, '2026-03-08T04:30:00Z']);
      await api.sql(`UPDATE payments SET created_at = $2 WHERE id = $1`, [before.id, '2026-03-08T06:30:00Z']);
      await api.sql(`UPDATE payments SET created_at = $2 WHERE id = $1`, [after.id, '2026-03-08T07:30:00Z']);

      const seoul = await shopClient.get('/console/payments').expect(200);
      expect(seoul.text).toContain('Times in Asia/Seoul');
      expect(seoul.text).toContain('2026-03-08 13:30:00 KST');
      expect(seoul.text).toContain('2026-03-08 15:30:00 KST');
      expect(seoul.text).toContain('2026-03-08 16:30:00 KST');
      const seoulPage = await shopClient.get(`/console/payments/${before.id}`).expect(200);
      expect(seoulPage.text).toMatch(
        /<time datetime="2026-03-08T06:30:00.000Z" class="nowrap">2026-03-08 15:30:00 KST/,
      );
      // The day filter uses the merchant's calendar: all three are on 8 March in Seoul.
      const seoulDay = await shopClient
        .get('/console/payments?createdFrom=2026-03-08&createdTo=2026-03-08')
        .expect(200);
      expect(listed(seoulDay.text)).toEqual([after.id, before.id, early.id]);

      await shopClient.post('/console/settings', { timeZone: 'America/New_York' }).expect(303);
      const newYork = await shopClient.get('/console/payments').expect(200);
      expect(newYork.text).toContain('Times in America/New_York');
      expect(newYork.text).toContain('2026-03-07 23:30:00 EST');
      expect(newYork.text).toContain('2026-03-08 01:30:00 EST');
      expect(newYork.text).toContain('2026-03-08 03:30:00 EDT');
      // No time is shown in Seoul's zone any more (ids are random: one may hold the letters KST).
      expect(newYork.text).not.toMatch(/\d{2}:\d{2}:\d{2} KST/);
      const newYorkPage = await shopClient.get(`/console/payments/${after.id}`).expect(200);
      expect(newYorkPage.text).toContain('2026-03-08 03:30:00 EDT');
      // In New York the first one was still on 7 March.
      const newYorkDay = await shopClient
        .get('/console/payments?createdFrom=2026-03-08&createdTo=2026-03-08')
        .expect(200);
      expect(listed(newYorkDay.text)).toEqual([after.id, before.id]);
      const march7 = await shopClient.get('/console/payments?createdTo=2026-03-07').expect(200);
      expect(listed(march7.text)).toEqual([early.id]);
    });

    it("shows a payment's fields, state history, events and attempts, and redelivers an event", async () => {
      // A redelivery goes to the mode's endpoints: this one has an endpoint to send it to.
      await api.as(merchant).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/hooks' }).expect(200);
      const payment = await completedPayment(merchant);
      await api.sql(
        `INSERT INTO webhook_attempts (id, event_id, number, url, started_at, duration_ms, response_status, response_body)
         VALUES ($1, $2, 1000, 'https://shop.example/hooks', '2026-03-08T06:30:01Z', 42, 500, '<h1>boom</h1>')`,
        [`att_${'x'.repeat(24)}${Date.now()}`, payment.eventId],
      );
      const page = await client.get(`/console/payments/${payment.id}`).expect(200);
      expect(page.text).toContain(payment.orderId);
      expect(page.text).toContain('customer-1');
      expect(page.text).toContain('₩15,000');
      expect(page.text).toMatch(/Created \(pending\) · <time/);
      expect(page.text).toMatch(/Completed · <time/);
      expect(page.text).toContain(payment.eventId);
      expect(page.text).toContain('2026-03-08 15:30:01 KST');
      expect(page.text).toContain('42 ms');
      expect(page.text).toContain('&lt;h1&gt;boom&lt;/h1&gt;');
      expect(page.text).toContain('>Redeliver</button>');

      const before = await outboxRowsFor(payment.eventId);
      const redelivered = await client
        .post(`/console/payments/${payment.id}/events/${payment.eventId}/redeliver`, { mode: 'test' })
        .expect(303);
      expect(redelivered.headers.location).toBe(
        `/console/payments/${payment.id}?mode=test&notice=redelivery#${payment.eventId}`,
      );
      expect(await outboxRowsFor(payment.eventId)).toBe(before + 1);
      const after = await client.get(redelivered.headers.location.split('#')[0]).expect(200);
      expect(after.text).toContain('Redelivery queued');
    });

    it('shows failed and canceled payments with when they ended', async () => {
      const failed = await createPayment(merchant);
      await api.as(merchant).post(`/v1/test-helpers/payments/${failed.id}/fail`).expect(200);
      await api.sql(`UPDATE payments SET updated_at = '2026-03-08T07:30:00Z' WHERE id = $1`, [failed.id]);
      const page = await client.get(`/console/payments/${failed.id}`).expect(200);
      expect(page.text).toMatch(
        /Failed · <time datetime="2026-03-08T07:30:00.000Z" class="nowrap">2026-03-08 16:30:00 KST/,
      );
      // Its one event is payment.failed, recorded as skipped: the merchant has not enabled that type.
      expect(page.text).toMatch(/<code>evt_\w+<\/code> <code>payment\.failed<\/code><\/h3>/);
      expect(page.text).toContain('<span class="badge skipped">skipped</span>');
    });

    it('edits the webhook URL per mode with the API rules, and rotates the secret after a confirmation', async () => {
      const shop = await approvedMerchant(api);
      const shopClient = await ConsoleClient.login(api, shop.email);
      const saved = await shopClient
        .post('/console/developers/webhook-endpoint', { mode: 'test', url: 'https://shop.example/hooks' })
        .expect(303);
      expect(saved.headers.location).toBe('/console/developers?notice=url-saved#endpoint-test');
      const endpoint = await api.as(shop).get('/v1/webhook-endpoint').expect(200);
      expect(endpoint.body.data.url).toBe('https://shop.example/hooks');
      const page = await shopClient.get('/console/developers').expect(200);
      expect(page.text).toContain('Sends payment.completed to <code>https://shop.example/hooks</code>');
      expect(page.text).toMatch(/<summary>Reveal signing secret<\/summary>\s*<p><code class="secret">whsec_/);
      expect(page.text).toContain(endpoint.body.data.signingSecret);

      for (const url of [
        'ftp://shop.example/hooks',
        'shop.example/hooks',
        `https://shop.example/${'a'.repeat(2048)}`,
      ]) {
        const refused = await shopClient
          .post('/console/developers/webhook-endpoint', { mode: 'test', url })
          .expect(400);
        expect(refused.text).toContain('absolute http(s) URL');
      }
      const live = await shopClient
        .post('/console/developers/webhook-endpoint', { mode: 'live', url: 'https://shop.example/live' })
        .expect(400);
      expect(live.text).toContain('Live mode opens once the integration test passes');
      expect(await api.sql(`SELECT 1 FROM webhook_endpoints WHERE merchant_id = $1`, [shop.merchantId])).toHaveLength(
        1,
      );

      const confirm = await shopClient.get('/console/developers/rotate-secret?mode=test').expect(200);
      expect(confirm.text).toContain('Rotate the test signing secret?');
      const unchanged = await api.as(shop).get('/v1/webhook-endpoint').expect(200);
      expect(unchanged.body.data.signingSecret).toBe(endpoint.body.data.signingSecret);
      await shopClient.post('/console/developers/rotate-secret', { mode: 'test' }).expect(303);
      const rotated = await api.as(shop).get('/v1/webhook-endpoint').expect(200);
      expect(rotated.body.data.signingSecret).toMatch(/^whsec_/);
      expect(rotated.body.data.signingSecret).not.toBe(endpoint.body.data.signingSecret);
    });

    it('sets the event types an endpoint is sent, and refuses a form with none checked', async () => {
      const shop = await approvedMerchant(api);
      const shopClient = await ConsoleClient.login(api, shop.email);
      const form = { mode: 'test', url: 'https://shop.example/hooks', 'events-listed': '1' };
      await shopClient
        .post('/console/developers/webhook-endpoint', { ...form, events: ['payment.failed', 'payment.completed'] })
        .expect(303);
      const endpoint = await api.as(shop).get('/v1/webhook-endpoint').expect(200);
      expect(endpoint.body.data.enabledEvents).toEqual(['payment.completed', 'payment.failed']);
      const page = await shopClient.get('/console/developers').expect(200);
      expect(page.text).toMatch(/<input type="checkbox" name="events" value="payment.failed" checked \/>/);
      expect(page.text).toMatch(/<input type="checkbox" name="events" value="payment.expired"\s*\/>/);

      for (const events of [[], ['payment.refunded']]) {
        const refused = await shopClient.post('/console/developers/webhook-endpoint', { ...form, events }).expect(400);
        expect(refused.text).toContain('Choose at least one of the event types');
      }
      const kept = await api.as(shop).get('/v1/webhook-endpoint').expect(200);
      expect(kept.body.data.enabledEvents).toEqual(['payment.completed', 'payment.failed']);
    });

    it('lists API keys masked with creation and last use', async () => {
      const shop = await approvedMerchant(api);
      const shopClient = await ConsoleClient.login(api, shop.email);
      const masked = `svc_test_…${shop.key.slice(-4)}`;
      const fresh = await shopClient.get('/console/developers').expect(200);
      expect(fresh.text).toContain(masked);
      expect(fresh.text).not.toContain(shop.key);
      expect(fresh.text).toMatch(/never<\/span>/);

      await api.as(shop).get('/v1/payments').expect(200);
      const used = await pollUntil(
        async () => (await shopClient.get('/console/developers').expect(200)).text,
        (text) => !text.includes('never</span>'),
      );
      const [row] = await api.sql<{ last_used_at: Date }>(`SELECT last_used_at FROM api_keys WHERE id = $1`, [
        shop.keyId,
      ]);
      expect(used).toContain(`datetime="${row.last_used_at.toISOString()}"`);
    });

    it('starts the integration test in test mode and shows its runs', async () => {
      const shop = await approvedMerchant(api);
      const shopClient = await ConsoleClient.login(api, shop.email);
      const page = await shopClient.get('/console/developers').expect(200);
      expect(page.text).toContain('integrating');
      expect(page.text).toContain('No integration test has run yet.');
      const started = await shopClient.post('/console/developers/integration-tests').expect(303);
      expect(started.headers.location).toBe('/console/developers?notice=test-started#go-live');
      const finished = await pollUntil(
        async () => (await shopClient.get('/console/developers').expect(200)).text,
        (text) => !text.includes('Check the results'),
        { intervalMs: 200 },
      );
      // No test endpoint is set: completion fails and says why.
      expect(finished).toMatch(/<span class="badge failed">failed<\/span> <code>itr_/);
      expect(finished).toContain('No test webhook endpoint is set');
    });

    it('changes the time zone only to an IANA name', async () => {
      const shop = await approvedMerchant(api);
      const shopClient = await ConsoleClient.login(api, shop.email);
      const page = await shopClient.get('/console/settings').expect(200);
      expect(page.text).toContain('value="Asia/Seoul"');
      expect(page.text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} KST/);
      for (const timeZone of ['Mars/Olympus', 'KST', '', 'Asia/Seoul; DROP TABLE']) {
        const refused = await shopClient.post('/console/settings', { timeZone }).expect(400);
        expect(refused.text).toContain('Enter an IANA time zone');
      }
      const saved = await shopClient.post('/console/settings', { timeZone: 'Europe/Berlin' }).expect(303);
      expect(saved.headers.location).toBe('/console/settings?notice=saved');
      const shown = await api.admin().get(`/admin/v1/merchants/${shop.merchantId}`).expect(200);
      expect(shown.body.data.timeZone).toBe('Europe/Berlin');
      const after = await shopClient.get('/console/settings?notice=saved').expect(200);
      expect(after.text).toContain('Time zone saved');
      expect(after.text).toMatch(/ (CET|CEST)<\/strong> in Europe\/Berlin/);
    });
  });
});
