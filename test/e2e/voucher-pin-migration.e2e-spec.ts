import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@payhook/persistence';
import { KeyedPinHashes1764500000000 } from '../../libs/persistence/src/migrations/1764500000000-keyed-pin-hashes';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { createPayment, newVoucherPin, openVoucherPage } from '../support/pay-screen-client';
import { PaymentsApiHarness } from '../support/payments-api.harness';

jest.setTimeout(60_000);

/** Issue 16: vouchers stored before PINs were keyed are still redeemable after the migration. */
describe('migrating voucher PINs to keyed hashes', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    services = await isolatedServices('pins');
    api = await PaymentsApiHarness.start({ ...services.env, TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await api?.stop();
    await services?.drop();
  });

  it('keys a voucher stored as its plain SHA-256 without knowing its PIN, and the payer can still use it', async () => {
    const pin = newVoucherPin();
    const digits = pin.replace(/-/g, '');
    const legacyHash = createHash('sha256').update(digits).digest('hex');
    // As the previous release stored it.
    await api.sql(
      `INSERT INTO vouchers (id, livemode, issuer, kind, pin_hash, pin_last4, face_value, status)
       VALUES ('vch_legacy00000000000000001', true, 'registry', 'culture', $1, $2, 15000, 'available')`,
      [legacyHash, digits.slice(-4)],
    );

    const db = await new DataSource(
      dataSourceOptions({ url: services.env.DATABASE_URL, entities: [], applicationName: 'payhook-tests' }),
    ).initialize();
    const runner = db.createQueryRunner();
    try {
      await new KeyedPinHashes1764500000000().up(runner);
    } finally {
      await runner.release();
      await db.destroy();
    }
    const [stored] = await api.sql<{ pin_hash: string }>(
      `SELECT pin_hash FROM vouchers WHERE id = 'vch_legacy00000000000000001'`,
    );
    expect(stored.pin_hash).not.toBe(legacyHash);

    const live = await api.merchantWithKey('live', { live: true });
    const payment = await createPayment(api, live, 15_000);
    await (await openVoucherPage(api, payment.payUrl)).submit(pin).expect(303);
    expect((await api.as(live).get(`/v1/payments/${payment.id}`).expect(200)).body.data.status).toBe('completed');
  });
});
