import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { expectApiError, idemKey, rowCounts } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';

/** The create response as it always was: the VAT split and metadata are on the reads only. */
const CREATED_FIELDS = ['amount', 'currency', 'expiresAt', 'id', 'orderId', 'payUrl', 'status'];

type Payment = Record<string, unknown> & { id: string };

/**
 * The VAT split and metadata on payments: `taxFreeAmount` and `metadata` on create, stored with the row, part of the
 * idempotency fingerprint, refused with a 400 naming the field (never a 500); the VAT split on get
 * and list, the create response and the events as they were.
 */
describe('POST /v1/payments with taxFreeAmount and metadata; the VAT split on get and list', () => {
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

  async function create(overrides: Record<string, unknown> = {}): Promise<Payment> {
    const response = await payments.create(paymentBody(overrides));
    expect(response.status).toBe(201);
    expect(Object.keys(response.body.data).sort()).toEqual(CREATED_FIELDS);
    return response.body.data as Payment;
  }
  const get = async (id: string) => (await payments.get(id).expect(200)).body.data as Payment;
  const listed = async () => (await payments.list({ limit: '100' }).expect(200)).body.data as Payment[];

  describe('the VAT split (§10 examples)', () => {
    it('₩15,000 → VAT ₩1,364, supplied ₩13,636; ₩10,000 with ₩3,000 tax-free → ₩636 and ₩6,364; get and list agree', async () => {
      const plain = await create({ amount: 15_000 });
      const mixed = await create({ amount: 10_000, taxFreeAmount: 3_000 });
      expect(await get(plain.id)).toMatchObject({
        amount: 15_000,
        taxFreeAmount: 0,
        vat: 1_364,
        suppliedAmount: 13_636,
        metadata: {},
        escrow: null,
      });
      expect(await get(mixed.id)).toMatchObject({
        amount: 10_000,
        taxFreeAmount: 3_000,
        vat: 636,
        suppliedAmount: 6_364,
        metadata: {},
        escrow: null,
      });
      const list = await listed();
      for (const payment of [plain, mixed]) {
        expect(list.find((each) => each.id === payment.id)).toEqual(await get(payment.id));
      }
    });

    it.each([
      // amount, taxFreeAmount → vat, suppliedAmount: VAT(x) = ⌊(x + 5) / 11⌋, x/11 to the nearest won
      [1, 0, 0, 1],
      [6, 0, 1, 5],
      [16, 0, 1, 15],
      [17, 0, 2, 15],
      [11_000, 0, 1_000, 10_000],
      [15_000, 15_000, 0, 0],
      [10_000_000_000, 1, 909_090_909, 9_090_909_090],
    ])(
      '₩%d with ₩%d tax-free → VAT ₩%d, supplied ₩%d, the three adding up to the amount',
      async (amount, taxFree, vat, supplied) => {
        const payment = await create({ amount, taxFreeAmount: taxFree });
        const shown = await get(payment.id);
        expect(shown).toMatchObject({ taxFreeAmount: taxFree, vat, suppliedAmount: supplied });
        expect(taxFree + vat + supplied).toBe(amount);
      },
    );
  });

  describe('metadata', () => {
    it('is stored with the payment and shown on get and list as given, Korean and edge cases included', async () => {
      const metadata: Record<string, string> = {
        cartId: 'cart-5521',
        channel: '모바일 앱',
        empty: '',
        ['k'.repeat(40)]: 'forty-character key',
        'a.b_c-9': '😀 emoji and 한글',
        long: '가'.repeat(500),
        // Computed, so an own key as JSON.parse makes it, not the literal's prototype.
        ['__proto__']: 'an ordinary key here',
        constructor: 'so is this',
      };
      // Up to 20 keys.
      for (let i = Object.keys(metadata).length; i < 20; i++) metadata[`k${i}`] = String(i);
      expect(Object.keys(metadata)).toHaveLength(20);
      const body = JSON.stringify(paymentBody({ metadata, taxFreeAmount: 2_000 }));
      expect(body).toContain('"__proto__":"an ordinary key here"');
      const created = await payments.createRaw(body).expect(201);
      expect(Object.keys(created.body.data).sort()).toEqual(CREATED_FIELDS);
      const id = created.body.data.id as string;

      const shown = await get(id);
      expect(shown.metadata).toEqual(metadata);
      expect(Object.keys(shown.metadata as object).sort()).toEqual(Object.keys(metadata).sort());
      expect((await listed()).find((each) => each.id === id)).toEqual(shown);
      const [row] = await api.sql<{ tax_free_amount: string; metadata: string }>(
        `SELECT tax_free_amount::text, metadata::text FROM payments WHERE id = $1`,
        [id],
      );
      expect(row.tax_free_amount).toBe('2000');
      expect(JSON.parse(row.metadata)).toEqual(metadata);
    });

    it('is {} on a payment created without it', async () => {
      const payment = await create();
      expect((await get(payment.id)).metadata).toEqual({});
      const [row] = await api.sql<{ metadata: unknown }>(`SELECT metadata FROM payments WHERE id = $1`, [payment.id]);
      expect(row.metadata).toEqual({});
    });

    it('rides in the create statement itself: a create with both sends the same one statement as a create without', async () => {
      const pool = (api.app.get(DataSource).driver as PostgresDriver).master as Pool;
      const spy = jest.spyOn(pool, 'query');
      // Every statement that writes payments, with its parameters.
      const writes = () =>
        spy.mock.calls
          .map(([statement]) => statement as unknown as { text: string; values?: unknown[] })
          .filter((statement) => /\b(INSERT INTO|UPDATE)\s+payments\b/.test(statement.text ?? ''));
      try {
        await create();
        const without = writes().map((statement) => statement.text);
        spy.mockClear();
        await create({ taxFreeAmount: 500, metadata: { cartId: 'c-1' } });
        const withBoth = writes();
        expect(withBoth.map((statement) => statement.text)).toEqual(without);
        expect(withBoth).toHaveLength(1);
        const [row] = JSON.parse(String(withBoth[0].values?.[0])) as Record<string, unknown>[];
        expect(row).toMatchObject({ tax_free_amount: 500, metadata: { cartId: 'c-1' } });
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('the create response, the events and the operator', () => {
    it('keeps the create response and the payment.completed event exactly as they were', async () => {
      const created = await payments
        .create(paymentBody({ amount: 10_000, taxFreeAmount: 3_000, metadata: { cartId: 'c-9' } }))
        .expect(201);
      expect(Object.keys(created.body.data).sort()).toEqual(CREATED_FIELDS);
      const id = created.body.data.id as string;
      const completed = await api.as(merchant).post(`/v1/test-helpers/payments/${id}/complete`).expect(200);
      // The test helper answers the Payment of get.
      expect(completed.body.data).toMatchObject({ taxFreeAmount: 3_000, vat: 636, suppliedAmount: 6_364 });
      const events = await api.as(merchant).get(`/v1/events?paymentId=${id}`).expect(200);
      const [event] = events.body.data as { type: string; data: Record<string, unknown> }[];
      expect(event.type).toBe('payment.completed');
      expect(Object.keys(event.data).sort()).toEqual(['amount', 'completedAt', 'currency', 'orderId', 'paymentId']);
    });

    it("shows the split and metadata in the operator's confirm-receipt answer (the same Payment)", async () => {
      const live = await api.merchantWithKey('live', { live: true });
      const created = await paymentsClient(api, live.key)
        .create(
          paymentBody({
            amount: 10_000,
            taxFreeAmount: 3_000,
            metadata: { cartId: 'c-7' },
            returnUrl: 'https://shop.example/return',
          }),
        )
        .expect(201);
      const confirmed = await api
        .admin()
        .post(`/admin/v1/payments/${created.body.data.id as string}/confirm-receipt`)
        .expect(200);
      expect(confirmed.body.data).toMatchObject({
        status: 'completed',
        livemode: true,
        taxFreeAmount: 3_000,
        vat: 636,
        suppliedAmount: 6_364,
        metadata: { cartId: 'c-7' },
        escrow: null,
      });
    });
  });

  describe('the idempotency fingerprint covers both', () => {
    const paymentCount = async () => (await rowCounts(api, merchant.merchantId)).payments;

    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      ['another metadata value', { metadata: { cartId: 'a' } }, { metadata: { cartId: 'b' } }],
      ['another metadata key', { metadata: { cartId: 'a' } }, { metadata: { cartID: 'a' } }],
      ['one more metadata key', { metadata: { cartId: 'a' } }, { metadata: { cartId: 'a', more: '' } }],
      ['metadata left out', { metadata: { cartId: 'a' } }, {}],
      ['metadata added', {}, { metadata: { cartId: 'a' } }],
      ['another taxFreeAmount', { taxFreeAmount: 3_000 }, { taxFreeAmount: 3_001 }],
      ['taxFreeAmount left out', { taxFreeAmount: 3_000 }, {}],
      ['taxFreeAmount added', {}, { taxFreeAmount: 0 }],
    ])('refuses the same key with %s: 422 idempotency_key_reused, one payment', async (_case, first, second) => {
      const key = idemKey();
      const body = paymentBody();
      const original = await payments.create({ ...body, ...first }, key).expect(201);
      const refused = await payments.create({ ...body, ...second }, key);
      expectApiError(refused, { status: 422, code: 'idempotency_key_reused' });
      expect(await paymentCount()).toBe(1);
      // The original still replays.
      const replay = await payments.create({ ...body, ...first }, key).expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.text).toBe(original.text);
    });

    it('replays the same metadata in another key order and spacing', async () => {
      const key = idemKey();
      const body = paymentBody();
      const first = await payments
        .createRaw(JSON.stringify({ ...body, taxFreeAmount: 10, metadata: { a: '1', b: '2' } }), key)
        .expect(201);
      const second = await payments
        .createRaw(`{ "metadata" : { "b":"2", "a" : "1" }, "taxFreeAmount": 10, ${JSON.stringify(body).slice(1)}`, key)
        .expect(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.text).toBe(first.text);
      expect(await paymentCount()).toBe(1);
    });

    it('fingerprints a body without them as before, so keys claimed before these fields existed still replay', async () => {
      const key = idemKey();
      const body = paymentBody();
      await payments.create(body, key).expect(201);
      const canonical = `{${Object.keys(body)
        .sort()
        .map((field) => `${JSON.stringify(field)}:${JSON.stringify(body[field])}`)
        .join(',')}}`;
      const [stored] = await api.sql<{ fingerprint: string }>(
        `SELECT fingerprint FROM idempotency_keys WHERE merchant_id = $1 AND key = $2`,
        [merchant.merchantId, key],
      );
      expect(stored.fingerprint).toBe(createHash('sha256').update(canonical).digest('hex'));
    });
  });

  describe('refusals: 400 parameter_invalid naming the field, never a 500, nothing stored', () => {
    const expectNothingStored = async () => {
      await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 0, idempotencyKeys: 0 });
    };
    const twentyOneKeys = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));

    it.each<[string, Record<string, unknown>, string]>([
      ['taxFreeAmount above the amount', { amount: 10_000, taxFreeAmount: 10_001 }, 'taxFreeAmount'],
      ['taxFreeAmount negative', { taxFreeAmount: -1 }, 'taxFreeAmount'],
      ['taxFreeAmount a fraction', { taxFreeAmount: 1.5 }, 'taxFreeAmount'],
      ['taxFreeAmount a string', { taxFreeAmount: '3000' }, 'taxFreeAmount'],
      ['taxFreeAmount null', { taxFreeAmount: null }, 'taxFreeAmount'],
      ['taxFreeAmount a boolean', { taxFreeAmount: true }, 'taxFreeAmount'],
      ['taxFreeAmount past the largest amount', { taxFreeAmount: 1e21 }, 'taxFreeAmount'],
      ['metadata null', { metadata: null }, 'metadata'],
      ['metadata an array', { metadata: ['a'] }, 'metadata'],
      ['metadata a string', { metadata: 'cart-1' }, 'metadata'],
      ['metadata of 21 keys', { metadata: twentyOneKeys }, 'metadata'],
      ['a metadata key of 41 characters', { metadata: { ['k'.repeat(41)]: 'v' } }, 'metadata'],
      ['an empty metadata key', { metadata: { '': 'v' } }, 'metadata'],
      ['a metadata key with a space', { metadata: { 'cart id': 'v' } }, 'metadata'],
      ['a metadata key with a slash', { metadata: { 'cart/id': 'v' } }, 'metadata'],
      ['a metadata key with a colon', { metadata: { 'cart:id': 'v' } }, 'metadata'],
      ['a metadata key in Korean', { metadata: { 상품: 'v' } }, 'metadata'],
      ['a metadata key with a control character', { metadata: { 'a\u0000b': 'v' } }, 'metadata'],
      ['a number as a metadata value', { metadata: { cartId: 5521 } }, 'metadata.cartId'],
      ['a boolean as a metadata value', { metadata: { gift: true } }, 'metadata.gift'],
      ['null as a metadata value', { metadata: { note: null } }, 'metadata.note'],
      ['an object as a metadata value', { metadata: { note: { text: 'x' } } }, 'metadata.note'],
      ['an array as a metadata value', { metadata: { tags: ['a', 'b'] } }, 'metadata.tags'],
      ['an object with a constructor key as a value', { metadata: { note: { constructor: 'x' } } }, 'metadata.note'],
      [
        'a nested object under __proto__',
        { metadata: JSON.parse('{"__proto__":{"polluted":"yes"}}') },
        'metadata.__proto__',
      ],
      ['a metadata value of 501 characters', { metadata: { note: '가'.repeat(501) } }, 'metadata.note'],
      ['a metadata value with a line break', { metadata: { note: 'a\nb' } }, 'metadata.note'],
      ['a metadata value with NUL', { metadata: { note: 'a\u0000b' } }, 'metadata.note'],
      ['a metadata value with a line separator', { metadata: { note: 'a\u2028b' } }, 'metadata.note'],
      ['a metadata value with a lone surrogate', { metadata: { note: 'a\ud800b' } }, 'metadata.note'],
      [
        'the bad value after 19 good keys',
        { metadata: { ...Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`k${i}`, 'v'])), z: 1 } },
        'metadata.z',
      ],
    ])('refuses %s', async (_case, overrides, param) => {
      const response = await payments.create(paymentBody(overrides));
      expectApiError(response, { status: 400, code: 'parameter_invalid', param });
      await expectNothingStored();
    });

    it.each<[string, string, string]>([
      ['a metadata key given twice', '{"note":"a","note":"b"}', 'metadata.note'],
      ['a metadata key given twice, once escaped', '{"note":"a","\\u006eote":"b"}', 'metadata.note'],
      ['metadata nested 40 objects deep', `{"note":${'{"a":'.repeat(40)}"x"${'}'.repeat(40)}}`, 'metadata.note'],
      ['metadata nested 30,000 arrays deep', `{"tags":${'['.repeat(30_000)}${']'.repeat(30_000)}}`, 'metadata.tags'],
      ['metadata nested 5 objects deep', '{"note":{"a":{"b":{"c":{"d":"x"}}}}}', 'metadata.note'],
    ])('refuses %s (a body no serializer writes)', async (_case, metadata, param) => {
      const body = JSON.stringify(paymentBody()).replace(/}$/, `,"metadata":${metadata}}`);
      const response = await payments.createRaw(body);
      expectApiError(response, { status: 400, code: 'parameter_invalid', param });
      await expectNothingStored();
    });

    it('refuses 64,000 characters of metadata values with a 400 naming the first key at fault, and a body past 64 KiB with 413', async () => {
      // 20 values of 3,200 characters: a body just under the 64 KiB limit, each value far past 500.
      const huge = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key${i}`, 'v'.repeat(3_200)]));
      const body = JSON.stringify(paymentBody({ metadata: huge }));
      expect(Buffer.byteLength(body)).toBeLessThan(64 * 1024);
      expectApiError(await payments.createRaw(body), {
        status: 400,
        code: 'parameter_invalid',
        param: 'metadata.key0',
      });
      // 64 KiB of values: the body itself is past the 64 KiB body limit, refused before it is read.
      const past = { ...huge, key19: 'v'.repeat(3_200 + 1_536) };
      const tooLarge = await payments.create(paymentBody({ metadata: past }));
      expectApiError(tooLarge, { status: 413, code: 'payload_too_large' });
      await expectNothingStored();
    });
  });
});
