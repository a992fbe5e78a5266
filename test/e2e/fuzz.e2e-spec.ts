import type { LoggerService } from '@nestjs/common';
import fc from 'fast-check';
import { openVoucherPage } from '../support/pay-screen-client';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { timeFor } from '../support/time-budget';

/** Every line the API logs during the run, to prove no secret is ever written out. */
class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  private record = (...parts: unknown[]) => this.lines.push(parts.map((part) => JSON.stringify(part) ?? '').join(' '));
  log = this.record;
  error = this.record;
  warn = this.record;
  debug = this.record;
  verbose = this.record;
  fatal = this.record;
}

const RUNS = 400;
// No test sends more than RUNS requests (RUNS cases of one, or RUNS / 4 of three).
jest.setTimeout(timeFor({ request: RUNS }));

/** A body close to valid, with any field replaced by anything: where parsers and validators break. */
const nearlyValidBody = fc.record(
  {
    orderId: fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9_.:-]{1,64}$/), fc.anything()),
    customerId: fc.oneof(fc.string({ unit: 'grapheme' }), fc.anything()),
    amount: fc.oneof(fc.integer(), fc.double(), fc.bigInt().map(String), fc.constant(1e308), fc.anything()),
    currency: fc.oneof(fc.constant('KRW'), fc.string()),
    returnUrl: fc.oneof(
      fc.webUrl(),
      fc.string(),
      fc.constant('javascript:alert(1)'),
      fc.constant('https://a.example/x\u0000y'),
    ),
    taxFreeAmount: fc.oneof(fc.integer({ min: -1, max: 20_000 }), fc.double(), fc.anything()),
    // Keys of the rules and any keys (constructor, __proto__ included), values of any text (lone
    // surrogates, NUL, controls) or anything at all.
    metadata: fc.oneof(
      fc.dictionary(fc.stringMatching(/^[A-Za-z0-9_.-]{1,40}$/), fc.string({ unit: 'binary', maxLength: 600 }), {
        maxKeys: 22,
      }),
      fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('constructor', '__proto__', 'toString')), fc.anything()),
      fc.anything(),
    ),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

describe('fuzzing the running API', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  const logger = new CapturingLogger();

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' }, logger);
    merchant = await api.merchantWithKey('test');
  });
  afterAll(() => api.stop());

  function expectCleanAnswer(response: { status: number; text: string; headers: Record<string, string> }) {
    expect(response.status).toBeLessThan(500);
    expect(response.headers['request-id']).toMatch(/^req_/);
    expect(response.text).not.toMatch(/\n\s+at |node_modules|Error:/);
    if (response.status >= 400 && response.headers['content-type']?.startsWith('application/json')) {
      const body = JSON.parse(response.text) as { error: { code: string; requestId: string } };
      expect(body.error.requestId).toBe(response.headers['request-id']);
    }
  }

  it('answers random create bodies and headers without a 5xx, and rejected ones leave no row', async () => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(nearlyValidBody, fc.anything()),
        fc.oneof(fc.string(), fc.constant(undefined)),
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
        ),
        async (body, key, contentType) => {
          let request = api.as(merchant).post('/v1/payments').set('Content-Type', contentType);
          if (key !== undefined && /^[\t\x20-\x7e]*$/.test(key)) request = request.set('Idempotency-Key', key);
          const response = await request.send(JSON.stringify(body) ?? 'undefined');
          expectCleanAnswer(response);
          if (response.status === 201 && !response.headers['idempotent-replayed']) created += 1;
        },
      ),
      { numRuns: RUNS },
    );
    const rows = await api.sql<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1`, [
      merchant.merchantId,
    ]);
    expect(rows[0].n).toBe(created);
  });

  it('answers random refund bodies without a 5xx, and refunds exactly what the remainder allows', async () => {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', `fuzz-refund-${Date.now()}`)
      .send(paymentBody({ amount: 1_000_000 }))
      .expect(201);
    const paymentId = created.body.data.id as string;
    await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
    let remaining = 1_000_000;
    const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.anything());
    const refundBody = fc.record(
      {
        amount: fc.oneof(fc.integer({ min: -10, max: 2_000 }), fc.double(), fc.constant(1e308), fc.anything()),
        reason: text,
        refundAccount: fc.oneof(
          fc.record({ bank: text, accountNumber: text, holderName: text, extra: fc.anything() }, { requiredKeys: [] }),
          fc.anything(),
        ),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    // Texts a serializer would not produce: duplicate keys, deep nesting, huge numbers.
    const rawBody = fc.oneof(
      fc.integer({ min: 1, max: 5 }).map((n) => `{"amount":${n},"amount":"${n}"}`),
      fc.integer({ min: 100, max: 5_000 }).map((depth) => `{"refundAccount":${'['.repeat(depth)}${']'.repeat(depth)}}`),
      fc.integer({ min: 100, max: 5_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
      fc.constantFrom('{"amount":1e999}', '{"amount":123456789012345678901234567890}', '{"amount":-0}', '[]', 'null'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          refundBody.map((body) => JSON.stringify(body) ?? 'null'),
          rawBody,
        ),
        fc.oneof(fc.string(), fc.constant(undefined)),
        async (body, key) => {
          let request = api
            .as(merchant)
            .post(`/v1/payments/${paymentId}/refunds`)
            .set('Content-Type', 'application/json');
          if (key !== undefined && /^[\t\x20-\x7e]*$/.test(key)) request = request.set('Idempotency-Key', key);
          const response = await request.send(body);
          expectCleanAnswer(response);
          // The model of the guard: a new refund takes what it asked (omitted: the rest) if it fits, else 409.
          const asked = (JSON.parse(body) as { amount?: number } | null)?.amount ?? remaining;
          if (response.status === 201 && response.headers['idempotent-replayed'] !== 'true') {
            expect(response.body.data.amount).toBe(asked);
            expect(asked).toBeLessThanOrEqual(remaining);
            expect(asked).toBeGreaterThan(0);
            remaining -= asked;
          }
          if (response.body?.error?.code === 'refund_amount_exceeded') {
            expect(asked === 0 || asked > remaining).toBe(true);
          }
        },
      ),
      { numRuns: RUNS },
    );
    const [payment] = await api.sql<{ refunded: string; held: string; stored: string }>(
      `SELECT refunded_amount AS refunded, refund_held_amount AS held,
              (SELECT COALESCE(sum(amount), 0) FROM refunds WHERE payment_id = p.id AND status <> 'failed') AS stored
       FROM payments p WHERE id = $1`,
      [paymentId],
    );
    const refundedByModel = String(1_000_000 - remaining);
    expect(payment).toEqual({ refunded: refundedByModel, held: refundedByModel, stored: refundedByModel });
  });

  it('refuses an explicit null in any refund field with 400 parameter_invalid naming it, refunding nothing', async () => {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', `fuzz-refund-null-${Date.now()}`)
      .send(paymentBody({ amount: 10_000 }))
      .expect(201);
    const paymentId = created.body.data.id as string;
    await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
    const validBody = fc.record(
      {
        amount: fc.integer({ min: 1, max: 10_000 }),
        reason: fc.stringMatching(/^[a-z ]{1,20}$/),
        refundAccount: fc.constant({ bank: 'KB', accountNumber: '110-1', holderName: 'Hong' }),
      },
      { requiredKeys: [] },
    );
    const field = fc.constantFrom('amount', 'reason', 'refundAccount');
    await fc.assert(
      fc.asyncProperty(validBody, field, fc.nat(), async (body, nulled, n) => {
        const response = await api
          .as(merchant)
          .post(`/v1/payments/${paymentId}/refunds`)
          .set('Idempotency-Key', `fuzz-null-${n}-${nulled}`)
          .send({ ...body, [nulled]: null });
        expectCleanAnswer(response);
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'parameter_invalid', param: nulled });
      }),
      { numRuns: RUNS / 4 },
    );
    expect(await api.sql('SELECT 1 FROM refunds WHERE payment_id = $1', [paymentId])).toEqual([]);
  });

  it('answers random raw bytes as bodies without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 256 }), async (bytes) => {
        const response = await api
          .as(merchant)
          .post('/v1/payments')
          .set('Content-Type', 'application/json')
          .set('Idempotency-Key', 'raw-bytes')
          .send(Buffer.from(bytes));
        expectCleanAnswer(response);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers random list queries without a 5xx', async () => {
    const param = fc.constantFrom(
      'status',
      'orderId',
      'customerId',
      'createdFrom',
      'createdTo',
      'limit',
      'cursor',
      'x',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(param, fc.string()), { maxLength: 4 }), async (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const response = await api.as(merchant).get(`/v1/payments?${query}`);
        expectCleanAnswer(response);
        expect([200, 400]).toContain(response.status);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses random and forged cursors on every list with 400 parameter_invalid cursor', async () => {
    const base64url = (text: string) => Buffer.from(text).toString('base64url');
    const isoDate = fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString());
    const idOf = (prefix: string) => fc.stringMatching(/^[0-9A-Za-z]{24}$/).map((random) => prefix + random);
    const cursor = fc.oneof(
      fc.string({ minLength: 1, maxLength: 600 }),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,512}$/),
      fc.json().map(base64url),
      // Shaped exactly like a real cursor, naming no row of this merchant at that position.
      fc
        .tuple(isoDate, fc.oneof(idOf('pay_'), idOf('evt_'), idOf('rev_'), idOf('rfd_')))
        .map((pair) => base64url(JSON.stringify(pair))),
    );
    const lists = ['/v1/payments', '/v1/events', '/v1/settlements', '/v1/refunds'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), cursor, async (path, value) => {
        const response = await api.as(merchant).get(path).query({ cursor: value });
        expectCleanAnswer(response);
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'parameter_invalid', param: 'cursor' });
      }),
      { numRuns: RUNS },
    );
  });

  it('answers random path ids without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          '/v1/payments/',
          '/v1/events/',
          '/p/',
          '/admin/v1/merchants/',
          '/v1/integration-tests/',
          '/admin/v1/reviews/',
          '/v1/refunds/',
        ),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
        async (prefix, id) => {
          const response = await api
            .http()
            .get(prefix + encodeURIComponent(id))
            .set('Authorization', prefix.startsWith('/admin') ? 'Bearer test-admin-token' : `Bearer ${merchant.key}`);
          expectCleanAnswer(response);
          expect([400, 404]).toContain(response.status);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('answers random deposit notifications without a 5xx, and refused ones record nothing', async () => {
    const deposit = fc.record(
      {
        bankTransactionId: fc.oneof(fc.string(), fc.uuid(), fc.anything()),
        amount: fc.oneof(fc.integer(), fc.double(), fc.constant(1e308), fc.anything()),
        depositCode: fc.oneof(fc.string(), fc.stringMatching(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/), fc.anything()),
        depositorName: fc.oneof(fc.string({ unit: 'grapheme' }), fc.anything()),
        receivedAt: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.string(),
          fc.anything(),
        ),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    // Other specs record bank deposits in the same database at the same time: count only the ids sent here.
    const sent = new Set<string>();
    const recorded = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.oneof(deposit, fc.anything()), async (body) => {
        const id = (body as { bankTransactionId?: unknown } | null)?.bankTransactionId;
        if (typeof id === 'string') sent.add(id);
        const response = await api
          .admin()
          .post('/admin/v1/deposits')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body) ?? 'null');
        expectCleanAnswer(response);
        if (response.status === 201) recorded.add(response.body.data.bankTransactionId as string);
      }),
      { numRuns: RUNS },
    );
    const rows = await api.sql<{ bank_transaction_id: string }>(
      `SELECT bank_transaction_id FROM deposits WHERE feed = 'bank' AND bank_transaction_id = ANY($1)`,
      [[...sent]],
    );
    expect(new Set(rows.map((row) => row.bank_transaction_id))).toEqual(recorded);
  });

  it('answers random review resolutions, voucher loads and settlement queries without a 5xx', async () => {
    // A deposit without a code: an open review case for the resolutions to hit.
    const seeded = await api
      .admin()
      .post('/admin/v1/deposits')
      .send({
        bankTransactionId: 'fuzz-review',
        amount: 1000,
        depositorName: 'x',
        receivedAt: new Date().toISOString(),
      })
      .expect(201);
    const reviewId = seeded.body.data.reviewCaseId as string;
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            action: fc.oneof(fc.constantFrom('complete', 'reject', 'refund'), fc.anything()),
            resolvedBy: fc.anything(),
            note: fc.anything(),
            paymentId: fc.oneof(fc.string(), fc.anything()),
          },
          { requiredKeys: [] },
        ),
        fc.record(
          {
            vouchers: fc.oneof(
              fc.array(
                fc.record(
                  { pin: fc.oneof(fc.string(), fc.anything()), faceValue: fc.anything(), kind: fc.anything() },
                  { requiredKeys: [] },
                ),
                { maxLength: 3 },
              ),
              fc.anything(),
            ),
            livemode: fc.anything(),
          },
          { requiredKeys: [] },
        ),
        fc.array(fc.tuple(fc.constantFrom('date', 'from', 'to', 'limit', 'cursor', 'x'), fc.string()), {
          maxLength: 3,
        }),
        async (resolution, vouchers, pairs) => {
          expectCleanAnswer(await api.admin().post(`/admin/v1/reviews/${reviewId}/resolve`).send(resolution));
          expectCleanAnswer(await api.admin().post('/admin/v1/vouchers').send(vouchers));
          const settlements = await api.as(merchant).get(`/v1/settlements?${new URLSearchParams(pairs).toString()}`);
          expectCleanAnswer(settlements);
          expect([200, 400]).toContain(settlements.status);
        },
      ),
      { numRuns: RUNS / 4 },
    );
  });

  it('answers random voucher PIN forms on the payment screen without a 5xx', async () => {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', 'fuzz-vouchers')
      .send(paymentBody({ amount: 10_000_000 }));
    const voucherPage = await openVoucherPage(api, created.body.data.payUrl as string);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: 'grapheme' }), fc.stringMatching(/^[0-9 \n,-]{0,120}$/)),
        async (pins) => {
          const response = await voucherPage.submit(pins);
          expect([200, 303, 429]).toContain(response.status);
          expect(response.text).not.toMatch(/\n\s+at |node_modules|Error:/);
        },
      ),
      { numRuns: RUNS / 4 },
    );
  });

  it('answers random Authorization headers with 401, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (token) => {
        if (!/^[\t\x20-\x7e]*$/.test(token)) return;
        const response = await api.http().get('/v1/payments').set('Authorization', `Bearer ${token}`);
        expectCleanAnswer(response);
        expect(response.status).toBe(401);
      }),
      { numRuns: RUNS },
    );
  });

  it('never writes an API key, signing secret or password to the logs', async () => {
    const endpoint = await api.as(merchant).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/hooks' });
    const password = 'correct horse battery staple';
    await api
      .admin()
      .post(`/admin/v1/merchants/${merchant.merchantId}/approve`)
      .send({ consoleEmail: `${merchant.merchantId}@shop.example`, consolePassword: password });
    const created = await api.as(merchant).post('/v1/payments').set('Idempotency-Key', 'log-check').send(paymentBody());
    // A voucher PIN is a bearer secret too: loaded, then typed on the payment screen.
    const pin = '8642097531864209';
    await api
      .admin()
      .post('/admin/v1/vouchers')
      .send({ livemode: false, vouchers: [{ pin, faceValue: 1000, kind: 'book' }] });
    await (await openVoucherPage(api, created.body.data.payUrl as string)).submit(pin).expect(200);
    // A refund account is the payer's personal data: taken, refused for a bad field, and in a replay.
    const accountNumber = '3333-01-9876543';
    const refundAccount = { bank: 'KakaoBank', accountNumber, holderName: 'Lee Seoyeon' };
    const refunded = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', 'log-check-refund')
      .send(paymentBody());
    const refundedId = refunded.body.data.id as string;
    await api.as(merchant).post(`/v1/test-helpers/payments/${refundedId}/complete`).expect(200);
    for (const body of [{ refundAccount }, { refundAccount }, { refundAccount: { ...refundAccount, bank: '' } }]) {
      await api
        .as(merchant)
        .post(`/v1/payments/${refundedId}/refunds`)
        .set('Idempotency-Key', 'log-check-refund')
        .send(body);
    }
    const secrets = [
      merchant.key,
      endpoint.body.data.signingSecret as string,
      password,
      'test-admin-token',
      pin,
      accountNumber,
    ];
    const logged = logger.lines.join('\n');
    for (const secret of secrets) expect(logged).not.toContain(secret);
  });
});
