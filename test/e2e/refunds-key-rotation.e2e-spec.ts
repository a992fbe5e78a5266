import { secretsKeyId } from '@payhook/config';
import { randomBytes } from 'node:crypto';
import { RefundAccountsRekeyer } from '../../apps/payments-api/src/refunds/refund-accounts.rekeyer';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { completedPayment, refundsClient } from '../support/refunds-client';

jest.setTimeout(120_000);

const ACCOUNT = { bank: 'Shinhan', accountNumber: '140-000-123456', holderName: 'Kim Minji' };

/**
 * A refund account is sealed under SECRETS_KEY like a webhook signing secret, and a rotation re-seals
 * it: once the rekeyer has run, the operator still reads it with the previous key gone.
 */
describe('refund accounts across a SECRETS_KEY rotation', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  let services: IsolatedServices;
  let api: PaymentsApiHarness | undefined;

  beforeAll(async () => {
    services = await isolatedServices('refund_rotation');
  });
  afterAll(async () => {
    await api?.stop();
    await services.drop();
  });

  const start = async (keys: Record<string, string>) => {
    await api?.stop();
    api = await PaymentsApiHarness.start({ ...services.env, ...keys });
    return api;
  };
  const sealedOf = async (id: string) =>
    (await api!.sql<{ sealed: string }>('SELECT refund_account_sealed AS sealed FROM refunds WHERE id = $1', [id]))[0]
      .sealed;
  const queued = async (id: string) =>
    ((await api!.admin().get('/admin/v1/refunds?limit=100').expect(200)).body.data as { id: string }[]).find(
      (refund) => refund.id === id,
    );

  it('re-seals every refund account under the new key; the operator reads it before and after', async () => {
    let current = await start({ SECRETS_KEY: oldKey.toString('base64') });
    const live = await current.merchantWithKey('live', { live: true });
    const paymentId = await completedPayment(current, live, 9_000, true);
    const refunds = refundsClient(current, live);
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      ids.push((await refunds.create(paymentId, { amount: 1_000, refundAccount: ACCOUNT }).expect(201)).body.data.id);
    }
    expect(await sealedOf(ids[0])).toMatch(new RegExp(`^v1:${secretsKeyId(oldKey)}:`));

    current = await start({ SECRETS_KEY: newKey.toString('base64'), SECRETS_KEY_PREVIOUS: oldKey.toString('base64') });
    await current.app.get(RefundAccountsRekeyer).runOnce();
    for (const id of ids) expect(await sealedOf(id)).toMatch(new RegExp(`^v1:${secretsKeyId(newKey)}:`));

    await start({ SECRETS_KEY: newKey.toString('base64') });
    for (const id of ids) expect(await queued(id)).toMatchObject({ refundAccount: ACCOUNT });
  });
});
