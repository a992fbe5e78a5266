import { randomBytes } from 'node:crypto';
import { keyedPinHash, pinDigest } from '../../apps/payments-api/src/money/vouchers/voucher-pin';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { createPayment, newVoucherPin, openVoucherPage } from '../support/pay-screen-client';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';

jest.setTimeout(120_000);

/**
 * Issue 25 item 1: a PIN is one voucher whichever SECRETS_KEY is current. Before the fix a PIN loaded
 * again after a rotation was stored a second time under the new key: a redeemed one paid again, and
 * an available one answered 500 on the unique index when it was redeemed.
 */
describe('voucher PINs across a SECRETS_KEY rotation', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const hashUnder = (key: Buffer, pin: string) => keyedPinHash(key, pinDigest(pin.replace(/-/g, '')));
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let live: TestMerchant;
  /** Loaded before the rotation: one redeemed, one held by `holder`, one still available. */
  const pins = { redeemed: newVoucherPin(), held: newVoucherPin(), available: newVoucherPin() };
  let holder: { id: string; payUrl: string };

  const loadPins = (...loaded: { pin: string; faceValue: number }[]) =>
    api
      .admin()
      .post('/admin/v1/vouchers')
      .send({ vouchers: loaded.map((voucher) => ({ ...voucher, kind: 'culture' })) })
      .expect(201);

  /** Every row stored for a PIN, under either key. */
  const rowsOf = (pin: string) =>
    api.sql<{ pin_hash: string; status: string; payment_id: string | null }>(
      'SELECT pin_hash, status, payment_id FROM vouchers WHERE livemode AND pin_hash = ANY($1)',
      [[hashUnder(oldKey, pin), hashUnder(newKey, pin)]],
    );

  const paymentStatus = async (id: string) =>
    (await api.sql<{ status: string }>('SELECT status FROM payments WHERE id = $1', [id]))[0].status;

  beforeAll(async () => {
    services = await isolatedServices('pin_rotation');
    const env = { ...services.env, TRUST_PROXY: 'loopback' };
    api = await PaymentsApiHarness.start({ ...env, SECRETS_KEY: oldKey.toString('base64') });
    const before = await api.merchantWithKey('live', { live: true });
    await loadPins(
      { pin: pins.redeemed, faceValue: 15_000 },
      { pin: pins.held, faceValue: 10_000 },
      { pin: pins.available, faceValue: 15_000 },
    );
    const paid = await createPayment(api, before, 15_000);
    await (await openVoucherPage(api, paid.payUrl)).submit(pins.redeemed).expect(303);
    holder = await createPayment(api, before, 15_000);
    await (await openVoucherPage(api, holder.payUrl)).submit(pins.held).expect(200);
    await api.stop();

    // The rotation: SECRETS_KEY is the new key, the old one SECRETS_KEY_PREVIOUS.
    api = await PaymentsApiHarness.start({
      ...env,
      SECRETS_KEY: newKey.toString('base64'),
      SECRETS_KEY_PREVIOUS: oldKey.toString('base64'),
    });
    live = await api.merchantWithKey('live', { live: true });
  });
  afterAll(async () => {
    await api?.stop();
    await services?.drop();
  });

  it('skips a redeemed, a held and an available PIN loaded again, and moves each to the new key', async () => {
    const reloaded = await loadPins(
      { pin: pins.redeemed, faceValue: 15_000 },
      { pin: pins.held, faceValue: 10_000 },
      { pin: pins.available, faceValue: 15_000 },
    );
    expect(reloaded.body.data).toMatchObject({ loaded: 0, skipped: 3 });
    for (const [pin, status] of [
      [pins.redeemed, 'redeemed'],
      [pins.held, 'held'],
      [pins.available, 'available'],
    ]) {
      expect(await rowsOf(pin)).toEqual([expect.objectContaining({ pin_hash: hashUnder(newKey, pin), status })]);
    }

    // Each is still the one voucher it was: used ones refuse another payment, the available one pays it.
    const payment = await createPayment(api, live, 15_000);
    const screen = await openVoucherPage(api, payment.payUrl);
    const refused = await screen.submit(`${pins.redeemed}\n${pins.held}`).expect(200);
    expect(refused.text).toContain(`PIN ending ${pins.redeemed.slice(-4)}: already used`);
    expect(refused.text).toContain(`PIN ending ${pins.held.slice(-4)}: already used`);
    await screen.submit(pins.available).expect(303);
    expect(await paymentStatus(payment.id)).toBe('completed');

    // The payment holding a voucher still holds it, and completes with the rest.
    const rest = newVoucherPin();
    await loadPins({ pin: rest, faceValue: 5_000 });
    await (await openVoucherPage(api, holder.payUrl)).submit(`${pins.held}\n${rest}`).expect(303);
    expect(await paymentStatus(holder.id)).toBe('completed');
  });

  it('moves a PIN to the new key when it is redeemed, without a load', async () => {
    const pin = newVoucherPin();
    await api.sql(
      `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_last4, face_value, status)
       VALUES ('vch_rotation0000000000000001', true, 'registry', 'culture', $1, $2, 15000, 'available')`,
      [hashUnder(oldKey, pin), pin.slice(-4)],
    );
    const payment = await createPayment(api, live, 15_000);
    await (await openVoucherPage(api, payment.payUrl)).submit(pin).expect(303);
    expect(await rowsOf(pin)).toEqual([
      { pin_hash: hashUnder(newKey, pin), status: 'redeemed', payment_id: payment.id },
    ]);
    const reloaded = await loadPins({ pin, faceValue: 15_000 });
    expect(reloaded.body.data).toMatchObject({ loaded: 0, skipped: 1 });
  });

  it('counts a PIN stored under both keys (a load again before the fix) once, and never answers 500', async () => {
    // As the loads before the fix left them: the PIN under the old key, and again under the new one.
    const [usedTwice, availableTwice] = [newVoucherPin(), newVoucherPin()];
    const paid = await createPayment(api, live, 15_000);
    await api.sql(
      `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_last4, face_value, status, payment_id, held_at,
                             redeemed_at)
       VALUES ('vch_rotation0000000000000002', true, 'registry', 'culture', $1, $2, 15000, 'redeemed', $3, now(), now())`,
      [hashUnder(oldKey, usedTwice), usedTwice.slice(-4), paid.id],
    );
    await api.sql(`UPDATE payments SET status = 'completed' WHERE id = $1`, [paid.id]);
    await loadPins({ pin: availableTwice, faceValue: 15_000 });
    for (const [id, pin] of [
      ['vch_rotation0000000000000003', usedTwice],
      ['vch_rotation0000000000000004', availableTwice],
    ]) {
      await api.sql(
        `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_last4, face_value, status)
         VALUES ($1, true, 'registry', 'culture', $2, $3, 15000, 'available')`,
        [id, hashUnder(pin === usedTwice ? newKey : oldKey, pin), pin.slice(-4)],
      );
    }
    expect(await rowsOf(usedTwice)).toHaveLength(2);
    expect(await rowsOf(availableTwice)).toHaveLength(2);

    const payment = await createPayment(api, live, 15_000);
    const screen = await openVoucherPage(api, payment.payUrl);
    const refused = await screen.submit(usedTwice).expect(200);
    expect(refused.text).toContain(`PIN ending ${usedTwice.slice(-4)}: already used`);
    expect(await rowsOf(usedTwice)).toEqual([
      { pin_hash: hashUnder(newKey, usedTwice), status: 'redeemed', payment_id: paid.id },
    ]);
    await screen.submit(availableTwice).expect(303);
    expect(await rowsOf(availableTwice)).toEqual([
      { pin_hash: hashUnder(newKey, availableTwice), status: 'redeemed', payment_id: payment.id },
    ]);
  });

  it('makes one voucher of a PIN loaded by many at once, redeemed meanwhile', async () => {
    const pin = newVoucherPin();
    await api.sql(
      `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_last4, face_value, status)
       VALUES ('vch_rotation0000000000000005', true, 'registry', 'culture', $1, $2, 15000, 'available')`,
      [hashUnder(oldKey, pin), pin.slice(-4)],
    );
    const fresh = newVoucherPin();
    const loadBoth = () => loadPins({ pin, faceValue: 15_000 }, { pin: fresh, faceValue: 15_000 });
    const loaded = (answers: { body: { data: { loaded: number } } }[]) =>
      answers.reduce((sum, answer) => sum + answer.body.data.loaded, 0);
    expect(loaded(await Promise.all(Array.from({ length: 8 }, loadBoth)))).toBe(1);
    // And loads while the PIN is being redeemed.
    const payment = await createPayment(api, live, 15_000);
    const screen = await openVoucherPage(api, payment.payUrl);
    const [redeemed, ...loads] = await Promise.all([screen.submit(pin), ...Array.from({ length: 4 }, loadBoth)]);
    expect(redeemed.status).toBe(303);
    expect(loaded(loads)).toBe(0);
    expect(await rowsOf(pin)).toEqual([
      { pin_hash: hashUnder(newKey, pin), status: 'redeemed', payment_id: payment.id },
    ]);
    expect(await rowsOf(fresh)).toEqual([
      expect.objectContaining({ pin_hash: hashUnder(newKey, fresh), status: 'available' }),
    ]);
  });
});
