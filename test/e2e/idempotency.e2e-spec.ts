import { expectApiError, idemKey, rowCounts } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';
import { pollUntil } from '../support/poll-until';

/** Scope merchant + mode + key, canonical-JSON fingerprint, one payment per key. */
describe('Idempotency-Key on POST /v1/payments', () => {
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

  const paymentIds = async (merchantId = merchant.merchantId) =>
    (await api.sql<{ id: string }>('SELECT id FROM payments WHERE merchant_id = $1', [merchantId])).map(
      (row) => row.id,
    );

  it('refuses a create without the header with 400 idempotency_key_missing', async () => {
    const response = await api
      .http()
      .post('/v1/payments')
      .set('Authorization', `Bearer ${merchant.key}`)
      .send(paymentBody());
    expectApiError(response, { status: 400, code: 'idempotency_key_missing' });
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 0, idempotencyKeys: 0 });
  });

  it.each([
    ['of 256 characters', 'k'.repeat(256)],
    ['with non-ASCII characters', 'clé-de-paiement'],
    ['empty', ''],
  ])('refuses a key %s with 400 idempotency_key_invalid', async (_description, key) => {
    const response = await payments.create(paymentBody(), key);
    expectApiError(response, { status: 400, code: 'idempotency_key_invalid' });
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 0, idempotencyKeys: 0 });
  });

  it('accepts a key of 255 printable ASCII characters, spaces and punctuation included', async () => {
    const key = `a key with spaces & punctuation !~ ${'x'.repeat(255)}`.slice(0, 255);
    const first = await payments.create(paymentBody(), key);
    expect(first.status).toBe(201);
  });

  it('replays the original status and body byte for byte with Idempotent-Replayed: true', async () => {
    const key = idemKey();
    const body = paymentBody();
    const first = await payments.create(body, key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const second = await payments.create(body, key);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    expect(second.headers['request-id']).not.toBe(first.headers['request-id']);
    await expect(paymentIds()).resolves.toEqual([first.body.data.id]);
  });

  it('replays for the same JSON with keys in another order and extra white space', async () => {
    const key = idemKey();
    const body = paymentBody();
    const first = await payments.createRaw(JSON.stringify(body), key);
    expect(first.status).toBe(201);

    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const spaced = `\n  ${JSON.stringify(reordered, null, 4).replaceAll('": ', '"  :   ')}\n\t`;
    expect(spaced).not.toBe(JSON.stringify(body));
    const second = await payments.createRaw(spaced, key);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    await expect(paymentIds()).resolves.toEqual([first.body.data.id]);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused and keeps one payment', async () => {
    const key = idemKey();
    const body = paymentBody();
    const first = await payments.create(body, key);
    expect(first.status).toBe(201);

    const sameOrderOtherAmount = await payments.create({ ...body, amount: 16000 }, key);
    expectApiError(sameOrderOtherAmount, { status: 422, code: 'idempotency_key_reused' });
    const otherOrder = await payments.create(paymentBody(), key);
    expectApiError(otherOrder, { status: 422, code: 'idempotency_key_reused' });

    await expect(paymentIds()).resolves.toEqual([first.body.data.id]);
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 1, idempotencyKeys: 1 });
    // The original is still replayed afterwards.
    const replay = await payments.create(body, key);
    expect(replay.text).toBe(first.text);
  });

  it('answers 50 concurrent requests with one key with one payment and the same body (or 409 in use)', async () => {
    const key = idemKey();
    const body = paymentBody();
    const answers = await Promise.all(Array.from({ length: 50 }, () => payments.create(body, key)));

    const created = answers.filter((answer) => answer.status === 201);
    const inUse = answers.filter((answer) => answer.status !== 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const answer of inUse) expectApiError(answer, { status: 409, code: 'idempotency_key_in_use' });
    expect(new Set(created.map((answer) => answer.text)).size).toBe(1);
    expect(created.filter((answer) => answer.headers['idempotent-replayed'] === undefined)).toHaveLength(1);

    const ids = await paymentIds();
    expect(ids).toEqual([created[0].body.data.id]);
    await expect(rowCounts(api, merchant.merchantId)).resolves.toEqual({ payments: 1, idempotencyKeys: 1 });
  });

  it('scopes keys per merchant: the same key at two merchants makes two payments', async () => {
    const other = await api.merchantWithKey('test');
    const key = idemKey();
    const mine = await payments.create(paymentBody(), key);
    const theirs = await paymentsClient(api, other.key).create(paymentBody(), key);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('scopes keys per mode: the same key with the test and the live key makes two payments', async () => {
    const live = await api.merchantWithKey('live', { live: true });
    const { key: testKey } = await api.issueKey(live.merchantId, 'test');
    const key = idemKey();
    const body = paymentBody();
    const inLive = await paymentsClient(api, live.key).create(body, key);
    const inTest = await paymentsClient(api, testKey).create(body, key);
    expect([inLive.status, inTest.status]).toEqual([201, 201]);
    expect(inTest.headers['idempotent-replayed']).toBeUndefined();
    expect(inTest.body.data.id).not.toBe(inLive.body.data.id);
    await expect(paymentIds(live.merchantId)).resolves.toHaveLength(2);
  });

  it('replays the original body even after the payment has moved on', async () => {
    const key = idemKey();
    const body = paymentBody();
    const first = await payments.create(body, key);
    await api.sql(`UPDATE payments SET status = 'completed', completed_at = now() WHERE id = $1`, [first.body.data.id]);
    const replay = await payments.create(body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
  });

  it('forgets a key after IDEMPOTENCY_TTL_HOURS: the same key then makes a new payment', async () => {
    const key = idemKey();
    const first = await payments.create(paymentBody(), key);
    expect(first.status).toBe(201);
    await api.sql(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'
       WHERE merchant_id = $1 AND key = $2`,
      [merchant.merchantId, key],
    );
    const second = await payments.create(paymentBody(), key);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.body.data.id).not.toBe(first.body.data.id);
    await expect(paymentIds()).resolves.toHaveLength(2);
  });

  it('does not remember a key whose request was refused by auth (live_mode_locked)', async () => {
    const locked = await api.merchantWithKey('live');
    const lockedPayments = paymentsClient(api, locked.key);
    const key = idemKey();
    const refused = await lockedPayments.create(paymentBody(), key);
    expectApiError(refused, { status: 403, code: 'live_mode_locked' });
    await expect(rowCounts(api, locked.merchantId)).resolves.toEqual({ payments: 0, idempotencyKeys: 0 });

    await api.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [locked.merchantId]);
    const body = paymentBody();
    const created = await pollUntil(
      () => lockedPayments.create(body, key),
      (response) => response.status !== 403,
    );
    expect(created.status).toBe(201);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
  });
});
