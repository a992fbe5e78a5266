import { randomBytes } from 'node:crypto';
import { SecretsKeyring, sealedPrefix, secretsKeyId } from '../../libs/config/src/sealed-secret';
import { keyedPinHash, pinDigest } from '../../apps/payments-api/src/money/vouchers/voucher-pin';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { createPayment, newVoucherPin, openVoucherPage } from '../support/pay-screen-client';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { RecordingLogger } from '../support/recording-logger';

jest.setTimeout(180_000);

/**
 * Issue 25 item 1: a PIN redeemed before a SECRETS_KEY rotation is never seen again, so only the
 * start-up rekeyer (through the PIN digest sealed beside the hash) can move it to the new key. Without
 * it the row stays under the old key, and once SECRETS_KEY_PREVIOUS is gone the PIN loads again as a
 * new voucher and pays a second time.
 */
describe('voucher PINs re-keyed at start during a SECRETS_KEY rotation', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const hashUnder = (key: Buffer, pin: string) => keyedPinHash(key, pinDigest(pin.replace(/-/g, '')));
  const pins = {
    redeemed: newVoucherPin(),
    available: newVoucherPin(),
    legacy: newVoucherPin(),
    copied: newVoucherPin(),
  };
  let services: IsolatedServices;
  let env: Record<string, string>;
  let api: PaymentsApiHarness | undefined;

  const loadPins = (harness: PaymentsApiHarness, ...pinsToLoad: string[]) =>
    harness
      .admin()
      .post('/admin/v1/vouchers')
      .send({ vouchers: pinsToLoad.map((pin) => ({ pin, faceValue: 15_000, kind: 'culture' })) })
      .expect(201);

  const rowOf = async (harness: PaymentsApiHarness, pin: string) =>
    harness.sql<{ pin_hash: string; pin_digest_sealed: string | null; status: string }>(
      'SELECT pin_hash, pin_digest_sealed, status FROM vouchers WHERE livemode AND pin_hash = ANY($1)',
      [[hashUnder(oldKey, pin), hashUnder(newKey, pin)]],
    );

  beforeAll(async () => {
    services = await isolatedServices('pin_rekeyer');
    env = { ...services.env, TRUST_PROXY: 'loopback' };
  });
  afterAll(async () => {
    await api?.stop();
    await services?.drop();
  });

  it('moves a redeemed PIN to the new key, so it is still used once the previous key is removed', async () => {
    // Under the old key: one PIN redeemed, one loaded and left, and one row from before digests were sealed.
    api = await PaymentsApiHarness.start({ ...env, SECRETS_KEY: oldKey.toString('base64') });
    const before = await api.merchantWithKey('live', { live: true });
    await loadPins(api, pins.redeemed, pins.available);
    const paid = await createPayment(api, before, 15_000);
    await (await openVoucherPage(api, paid.payUrl)).submit(pins.redeemed).expect(303);
    // Before PINs were re-keyed, a PIN redeemed under the old key could be loaded again under the new
    // one as a new, available voucher: that copy is seeded here as the load stored it.
    const copiedPaid = await createPayment(api, before, 15_000);
    await loadPins(api, pins.copied);
    await (await openVoucherPage(api, copiedPaid.payUrl)).submit(pins.copied).expect(303);
    const copyId = 'vch_rekeyercopy0000000000001';
    await api.sql(
      `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_digest_sealed, pin_last4, face_value, status)
       VALUES ($1, true, 'registry', 'culture', $2, $3, $4, 15000, 'available')`,
      [
        copyId,
        hashUnder(newKey, pins.copied),
        // As PinHashes seals a digest for its row.
        new SecretsKeyring(newKey).seal(pinDigest(pins.copied), `vouchers.pin_digest_sealed:${copyId}`),
        pins.copied.slice(-4),
      ],
    );
    await api.sql(
      `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_last4, face_value, status)
       VALUES ('vch_rekeyerlegacy00000000001', true, 'registry', 'culture', $1, $2, 15000, 'available')`,
      [hashUnder(oldKey, pins.legacy), pins.legacy.slice(-4)],
    );
    expect((await rowOf(api, pins.redeemed))[0].pin_digest_sealed).toMatch(
      new RegExp(`^${sealedPrefix(secretsKeyId(oldKey))}`),
    );
    await api.stop();

    // The rotation: nothing loads or redeems these PINs; the rekeyer moves them at start.
    const logger = new RecordingLogger();
    api = await PaymentsApiHarness.start(
      { ...env, SECRETS_KEY: newKey.toString('base64'), SECRETS_KEY_PREVIOUS: oldKey.toString('base64') },
      logger,
    );
    const rotating = api;
    const report = await pollUntil(
      async () => logger.lines.find((line) => line.includes('re-keyed')),
      (line) => line !== undefined,
    );
    expect(report).toContain(
      `re-keyed 3 voucher PINs from SECRETS_KEY_PREVIOUS (key ${secretsKeyId(oldKey)}) to SECRETS_KEY (key ${secretsKeyId(newKey)}) (1 of them merged with a copy loaded again under the current key); 0 still to move from the previous key; 1 stored before PIN digests were sealed`,
    );
    for (const pin of [pins.redeemed, pins.available, pins.copied]) {
      const [row] = await rowOf(rotating, pin);
      expect(row.pin_hash).toBe(hashUnder(newKey, pin));
      expect(row.pin_digest_sealed).toMatch(new RegExp(`^${sealedPrefix(secretsKeyId(newKey))}`));
    }
    // A row from before digests were sealed moves when its PIN is redeemed, and gets its digest then.
    const rotatedPayment = await createPayment(
      rotating,
      await rotating.merchantWithKey('live', { live: true }),
      15_000,
    );
    await (await openVoucherPage(rotating, rotatedPayment.payUrl)).submit(pins.legacy).expect(303);
    expect(await rowOf(rotating, pins.legacy)).toEqual([
      {
        pin_hash: hashUnder(newKey, pins.legacy),
        pin_digest_sealed: expect.stringMatching(new RegExp(`^${sealedPrefix(secretsKeyId(newKey))}`)),
        status: 'redeemed',
      },
    ]);
    for (const secret of [oldKey.toString('base64'), newKey.toString('base64'), pinDigest(pins.redeemed)]) {
      expect(logger.lines.join('\n')).not.toContain(secret);
    }
    await api.stop();

    // The previous key removed: the redeemed PIN is still the one used voucher, the other still pays.
    api = await PaymentsApiHarness.start({ ...env, SECRETS_KEY: newKey.toString('base64') });
    const after = await api.merchantWithKey('live', { live: true });
    const reloaded = await loadPins(api, pins.redeemed, pins.available);
    expect(reloaded.body.data).toMatchObject({ loaded: 0, skipped: 2 });
    const payment = await createPayment(api, after, 15_000);
    const screen = await openVoucherPage(api, payment.payUrl);
    const refused = await screen.submit(pins.redeemed).expect(200);
    expect(refused.text).toContain(`PIN ending ${pins.redeemed.slice(-4)}: already used`);
    await screen.submit(pins.available).expect(303);
    expect(await rowOf(api, pins.redeemed)).toEqual([expect.objectContaining({ status: 'redeemed' })]);
    // The copy loaded again under the new key merged into the redeemed row: it does not pay twice.
    const copied = await (
      await openVoucherPage(api, (await createPayment(api, after, 15_000)).payUrl)
    )
      .submit(pins.copied)
      .expect(200);
    expect(copied.text).toContain(`PIN ending ${pins.copied.slice(-4)}: already used`);
    expect(await rowOf(api, pins.copied)).toEqual([expect.objectContaining({ status: 'redeemed' })]);

    // A row from before digests were sealed, already under the current key, gets its digest when held.
    const unsealed = newVoucherPin();
    await api.sql(
      `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_last4, face_value, status)
       VALUES ('vch_rekeyerlegacy00000000002', true, 'registry', 'culture', $1, $2, 15000, 'available')`,
      [hashUnder(newKey, unsealed), unsealed.slice(-4)],
    );
    const last = await createPayment(api, after, 15_000);
    await (await openVoucherPage(api, last.payUrl)).submit(unsealed).expect(303);
    expect(await rowOf(api, unsealed)).toEqual([
      {
        pin_hash: hashUnder(newKey, unsealed),
        pin_digest_sealed: expect.stringMatching(new RegExp(`^${sealedPrefix(secretsKeyId(newKey))}`)),
        status: 'redeemed',
      },
    ]);
  });
});
