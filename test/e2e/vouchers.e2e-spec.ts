import { secretsKeyFrom } from '@payhook/config';
import { createHash, randomUUID } from 'node:crypto';
import { keyedPinHash, pinDigest } from '../../apps/payments-api/src/money/vouchers/voucher-pin';
import { expectApiError } from '../support/api-expectations';
import { bankDeposit, createPayment, newVoucherPin as newPin, openVoucherPage } from '../support/pay-screen-client';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';

/** How the API stores a PIN in this run (the development SECRETS_KEY: tests set none). */
const storedHashOf = (pin: string) =>
  keyedPinHash(secretsKeyFrom({ NODE_ENV: 'test' }).key, pinDigest(pin.replace(/-/g, '')));

describe('gift vouchers on the payment screen', () => {
  let api: PaymentsApiHarness;
  let live: TestMerchant;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ TRUST_PROXY: 'loopback' });
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    live = await api.merchantWithKey('live', { live: true });
  });

  async function livePayment(amount = 15_000) {
    return createPayment(api, live, amount);
  }

  async function loadVouchers(...faceValues: number[]): Promise<string[]> {
    const pins = faceValues.map(() => newPin());
    const loaded = await api
      .admin()
      .post('/admin/v1/vouchers')
      .send({ vouchers: pins.map((pin, i) => ({ pin, faceValue: faceValues[i], kind: 'culture' })) })
      .expect(201);
    expect(loaded.body.data).toMatchObject({ loaded: faceValues.length, skipped: 0 });
    return pins;
  }

  async function status(id: string): Promise<string> {
    return (await api.as(live).get(`/v1/payments/${id}`).expect(200)).body.data.status;
  }

  it('completes the payment when the PINs cover the amount and sends the user back', async () => {
    const payment = await livePayment(15_000);
    const [ten, five] = await loadVouchers(10_000, 5_000);
    const screen = await openVoucherPage(api, payment.payUrl);
    const answer = await screen.submit(`${ten}\n${five}`).expect(303);
    const back = new URL(answer.headers.location);
    expect(back.origin + back.pathname).toBe('https://shop.example/return');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      cart: '7',
      paymentId: payment.id,
      orderId: expect.any(String),
      status: 'completed',
    });
    expect(await status(payment.id)).toBe('completed');
    const vouchers = await api.sql<{ status: string }>('SELECT status FROM vouchers WHERE payment_id = $1', [
      payment.id,
    ]);
    expect(vouchers.map((v) => v.status)).toEqual(['redeemed', 'redeemed']);
    const events = await api.as(live).get(`/v1/events?paymentId=${payment.id}`).expect(200);
    expect(events.body.data).toHaveLength(1);
  });

  it('keeps a partial cover on the payment and shows what is left to pay', async () => {
    const payment = await livePayment(15_000);
    const [pin] = await loadVouchers(10_000);
    const screen = await openVoucherPage(api, payment.payUrl);
    const answer = await screen.submit(pin).expect(200);
    expect(answer.text).toContain(`PIN ending ${pin.slice(-4)}: applied (₩10,000)`);
    expect(answer.text).toMatch(/<dt>Left to pay<\/dt>\s*<dd class="amount" id="left-to-pay">₩5,000</);
    expect(answer.text).not.toContain(pin.replace(/-/g, ''));
    expect(await status(payment.id)).toBe('pending');
    // The same PIN again for the same payment changes nothing.
    await screen.submit(pin).expect(200);
    const [{ total }] = await api.sql<{ total: string }>(
      `SELECT sum(face_value) AS total FROM vouchers WHERE payment_id = $1 AND status = 'held'`,
      [payment.id],
    );
    expect(total).toBe('10000');
    // The waiting page and a bank transfer now ask for the rest only.
    const main = await api.http().get(new URL(payment.payUrl).pathname).set('Accept-Language', 'en').expect(200);
    expect(main.text).toContain('Left to pay:');
    expect(main.text).toContain('Send exactly ₩5,000');
    const korean = await api.http().get(new URL(payment.payUrl).pathname).expect(200);
    expect(korean.text).toContain('남은 결제 금액:');
    expect(korean.text).toContain('정확히 ₩5,000을 보내 주세요');
    const code = /id="deposit-code">([A-Z0-9-]{9})</.exec(main.text)![1];
    const deposit = await api
      .admin()
      .post('/admin/v1/deposits')
      .send(bankDeposit({ amount: 5_000, depositCode: code }))
      .expect(201);
    expect(deposit.body.data.outcome).toBe('matched');
    expect(await status(payment.id)).toBe('completed');
  });

  it('uses a PIN once when 20 payments redeem it at the same moment', async () => {
    const [pin] = await loadVouchers(15_000);
    const payments = await Promise.all(Array.from({ length: 20 }, () => livePayment(15_000)));
    const screens = await Promise.all(payments.map((payment) => openVoucherPage(api, payment.payUrl)));
    const answers = await Promise.all(screens.map((screen, i) => screen.submit(pin, `203.0.113.${i}`)));
    expect(answers.filter((answer) => answer.status === 303)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 200 && answer.text.includes('already used'))).toHaveLength(19);
    const statuses = await Promise.all(payments.map((payment) => status(payment.id)));
    expect(statuses.filter((s) => s === 'completed')).toHaveLength(1);
    const [voucher] = await api.sql<{ status: string; payment_id: string }>(
      'SELECT status, payment_id FROM vouchers WHERE pin_hash = $1',
      [storedHashOf(pin)],
    );
    expect(voucher.status).toBe('redeemed');
    expect(payments[statuses.indexOf('completed')].id).toBe(voucher.payment_id);
  });

  it('releases held vouchers when the payment expires, for another payment to use', async () => {
    const payment = await livePayment(15_000);
    const [pin] = await loadVouchers(10_000);
    await (await openVoucherPage(api, payment.payUrl)).submit(pin).expect(200);
    // Time passes; a new payment for the same order finds this one overdue and expires it.
    await api.sql(`UPDATE payments SET expires_at = now() - interval '1 second' WHERE id = $1`, [payment.id]);
    await api
      .as(live)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody({ orderId: payment.orderId }))
      .expect(201);
    expect(await status(payment.id)).toBe('expired');
    const [released] = await api.sql<{ status: string; payment_id: string | null }>(
      'SELECT status, payment_id FROM vouchers WHERE pin_hash = $1',
      [storedHashOf(pin)],
    );
    expect(released).toEqual({ status: 'available', payment_id: null });
    const next = await livePayment(10_000);
    await (await openVoucherPage(api, next.payUrl)).submit(pin).expect(303);
    expect(await status(next.id)).toBe('completed');
  });

  it('opens a review case for the value above the amount', async () => {
    const payment = await livePayment(12_000);
    const [pin] = await loadVouchers(20_000);
    await (await openVoucherPage(api, payment.payUrl)).submit(pin).expect(303);
    expect(await status(payment.id)).toBe('completed');
    const [review] = await api.sql<{ id: string }>('SELECT id FROM review_cases WHERE payment_id = $1', [payment.id]);
    const shown = await api.admin().get(`/admin/v1/reviews/${review.id}`).expect(200);
    expect(shown.body.data).toMatchObject({
      source: 'vouchers',
      reason: 'voucher_over_cover',
      amount: 8_000,
      status: 'open',
      paymentId: payment.id,
    });
  });

  it('says which PINs were wrong without revealing anything else', async () => {
    const payment = await livePayment();
    const screen = await openVoucherPage(api, payment.payUrl);
    const answer = await screen.submit('1111-2222-3333-4444\n12-34').expect(200);
    expect(answer.text).toContain('PIN ending 4444: not recognised');
    expect(answer.text).toContain('PIN ending 1234: not a voucher PIN');
    expect(await status(payment.id)).toBe('pending');
  });

  it('throttles PIN guessing per payment', async () => {
    const payment = await livePayment();
    const screen = await openVoucherPage(api, payment.payUrl);
    for (let round = 0; round < 2; round++) {
      const guesses = Array.from({ length: 5 }, () => newPin()).join('\n');
      await screen.submit(guesses, `192.0.2.${round}`).expect(200);
    }
    const [pin] = await loadVouchers(15_000);
    const throttled = await screen.submit(pin, '192.0.2.99').expect(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.text).toContain('Too many wrong PINs');
    expect(await status(payment.id)).toBe('pending');
  });

  it('throttles guesses sent all at once: they queue behind the count', async () => {
    const payment = await livePayment();
    const screen = await openVoucherPage(api, payment.payUrl);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        screen.submit(Array.from({ length: 5 }, () => newPin()).join('\n'), `192.0.2.${100 + i}`),
      ),
    );
    // 10 wrong PINs per payment: two submissions of five get through, every later one is refused.
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(10);
    const [{ n }] = await api.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM voucher_pin_failures WHERE payment_id = $1',
      [payment.id],
    );
    expect(n).toBe(10);
  });

  it('never deadlocks when two payments are given the same PINs in opposite orders', async () => {
    for (let round = 0; round < 10; round++) {
      const [x, y] = await loadVouchers(1_000, 1_000);
      const [a, b] = await Promise.all([livePayment(), livePayment()]);
      const [screenA, screenB] = await Promise.all([openVoucherPage(api, a.payUrl), openVoucherPage(api, b.payUrl)]);
      const answers = await Promise.all([
        screenA.submit(`${x}\n${y}`, `198.18.0.${round}`),
        screenB.submit(`${y}\n${x}`, `198.18.1.${round}`),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      // Each PIN is held once, by one of the two payments.
      const held = await api.sql<{ status: string; payment_id: string }>(
        `SELECT status, payment_id FROM vouchers WHERE pin_hash IN ($1, $2)`,
        [storedHashOf(x), storedHashOf(y)],
      );
      expect(held).toHaveLength(2);
      for (const voucher of held) {
        expect(voucher.status).toBe('held');
        expect([a.id, b.id]).toContain(voucher.payment_id);
      }
    }
  });

  it('throttles PIN guessing per client across payments', async () => {
    const client = '192.0.2.200';
    for (let round = 0; round < 6; round++) {
      const payment = await livePayment();
      const guesses = Array.from({ length: 5 }, () => newPin()).join('\n');
      await (await openVoucherPage(api, payment.payUrl)).submit(guesses, client).expect(200);
    }
    const fresh = await livePayment();
    await (await openVoucherPage(api, fresh.payUrl)).submit(newPin(), client).expect(429);
    // Another client on the same payment is not punished for it.
    await (await openVoucherPage(api, fresh.payUrl)).submit(newPin(), '192.0.2.201').expect(200);
  });

  it('refuses a form without its CSRF token and changes nothing', async () => {
    const payment = await livePayment();
    const [pin] = await loadVouchers(15_000);
    await api
      .http()
      .post(`${new URL(payment.payUrl).pathname}/vouchers`)
      .type('form')
      .send({ pins: pin, csrf: 'forged' })
      .expect(403);
    expect(await status(payment.id)).toBe('pending');
  });
});

describe('the voucher registry: POST /admin/v1/vouchers', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ TRUST_PROXY: 'loopback' });
  });
  afterAll(() => api.stop());

  it('stores PINs hashed and skips a PIN already loaded', async () => {
    const pin = newPin();
    const first = await api
      .admin()
      .post('/admin/v1/vouchers')
      .send({ vouchers: [{ pin, faceValue: 10_000, kind: 'book' }] })
      .expect(201);
    expect(first.body.data.vouchers[0]).toMatchObject({
      id: expect.stringMatching(/^vch_/),
      kind: 'book',
      faceValue: 10_000,
      pinLast4: pin.slice(-4),
      status: 'available',
      livemode: true,
    });
    expect(JSON.stringify(first.body)).not.toContain(pin.replace(/-/g, ''));
    const again = await api
      .admin()
      .post('/admin/v1/vouchers')
      .send({ vouchers: [{ pin, faceValue: 50_000, kind: 'book' }] })
      .expect(201);
    expect(again.body.data).toMatchObject({ loaded: 0, skipped: 1 });
    const rows = await api.sql<{ pin_hash: string; face_value: string }>(
      'SELECT pin_hash, face_value FROM vouchers WHERE id = $1',
      [first.body.data.vouchers[0].id],
    );
    expect(rows[0].face_value).toBe('10000');
    // Keyed under SECRETS_KEY: not the PIN's plain SHA-256, which a dump would let anyone try PINs against.
    const digits = pin.replace(/-/g, '');
    expect(rows[0].pin_hash).toBe(storedHashOf(pin));
    expect(rows[0].pin_hash).not.toBe(createHash('sha256').update(digits).digest('hex'));
  });

  it.each([
    [{ vouchers: [] }, 'parameter_invalid', 'vouchers'],
    [{}, 'parameter_missing', 'vouchers'],
    // Found by the fuzz spec: a list where a voucher belongs reached the handler and answered 500.
    [{ vouchers: [[]] }, 'parameter_invalid', 'vouchers'],
    [
      { vouchers: [{ pin: '1234-5678-9012-3456', faceValue: 1000, kind: 'book' }, [1]] },
      'parameter_invalid',
      'vouchers',
    ],
    [{ vouchers: [{ pin: '123', faceValue: 1000, kind: 'book' }] }, 'parameter_invalid', 'vouchers.0.pin'],
    [
      { vouchers: [{ pin: '1234-5678-9012-3456', faceValue: 0, kind: 'book' }] },
      'parameter_invalid',
      'vouchers.0.faceValue',
    ],
    [
      { vouchers: [{ pin: '1234-5678-9012-3456', faceValue: 1000, kind: 'gold' }] },
      'parameter_invalid',
      'vouchers.0.kind',
    ],
  ])('refuses %j', async (body, code, param) => {
    expectApiError(await api.admin().post('/admin/v1/vouchers').send(body), { status: 400, code, param });
  });

  it('issues test vouchers to test keys, which pay test payments', async () => {
    const test = await api.merchantWithKey('test');
    const issued = await api.as(test).post('/v1/test-helpers/vouchers').send({ faceValue: 15_000 }).expect(201);
    expect(issued.body.data).toMatchObject({
      pin: expect.stringMatching(/^\d{16}$/),
      faceValue: 15_000,
      livemode: false,
    });
    const created = await api
      .as(test)
      .post('/v1/test-helpers/vouchers')
      .send({ faceValue: 1, kind: 'culture' })
      .expect(201);
    expect(created.body.data.pin).not.toBe(issued.body.data.pin);
    const payment = await api
      .as(test)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(paymentBody())
      .expect(201);
    await (await openVoucherPage(api, payment.body.data.payUrl)).submit(issued.body.data.pin).expect(303);
    const live = await api.merchantWithKey('live', { live: true });
    expectApiError(await api.as(live).post('/v1/test-helpers/vouchers').send({ faceValue: 1 }), {
      status: 403,
      code: 'test_mode_only',
    });
  });
});
