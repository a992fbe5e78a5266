import { secretsKeyId } from '@payhook/config';
import { randomBytes } from 'node:crypto';
import { RefundAccountsRekeyer } from '../../apps/payments-api/src/money/refunds/refund-accounts.rekeyer';
import { expectApiError } from '../support/api-expectations';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { RecordingLogger } from '../support/recording-logger';
import { completedPayment, refundsClient } from '../support/refunds-client';

jest.setTimeout(120_000);

const ACCOUNT = { bank: 'Shinhan', accountNumber: '140-000-123456', holderName: 'Kim Minji' };

/**
 * A refund account is sealed under SECRETS_KEY like a webhook signing secret, and a rotation re-seals
 * it: once the rekeyer has run, the operator still reads it with the previous key gone. A refund's
 * idempotency fingerprint is keyed by SECRETS_KEY too and cannot be re-keyed: the rekeyer's report
 * says the previous key is still needed while unexpired keys were fingerprinted under it.
 */
describe('refund accounts across a SECRETS_KEY rotation', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  let services: IsolatedServices;
  let api: PaymentsApiHarness | undefined;
  let logger: RecordingLogger;

  beforeAll(async () => {
    services = await isolatedServices('refund_rotation');
  });
  afterAll(async () => {
    await api?.stop();
    await services.drop();
  });

  const start = async (keys: Record<string, string>) => {
    await api?.stop();
    logger = new RecordingLogger();
    api = await PaymentsApiHarness.start({ ...services.env, ...keys }, logger);
    return api;
  };
  const sealedOf = async (id: string) =>
    (await api!.sql<{ sealed: string }>('SELECT refund_account_sealed AS sealed FROM refunds WHERE id = $1', [id]))[0]
      .sealed;
  const queued = async (id: string) =>
    ((await api!.admin().get('/admin/v1/refunds?limit=100').expect(200)).body.data as { id: string }[]).find(
      (refund) => refund.id === id,
    );
  const reports = () =>
    logger.lines.filter((line) => line.includes('re-encrypted') && line.includes('refund accounts'));

  it('re-seals every refund account under the new key; the operator reads it before and after', async () => {
    let current = await start({ SECRETS_KEY: oldKey.toString('base64') });
    const live = await current.merchantWithKey('live', { live: true });
    const paymentId = await completedPayment(current, live, 9_000, true);
    let refunds = refundsClient(current, live);
    const ids: string[] = [];
    const body = { amount: 1_000, refundAccount: ACCOUNT };
    const keys = ['rotation-0', 'rotation-1', 'rotation-2'];
    for (const key of keys) ids.push((await refunds.create(paymentId, body, key).expect(201)).body.data.id);
    expect(await sealedOf(ids[0])).toMatch(new RegExp(`^v1:${secretsKeyId(oldKey)}:`));

    current = await start({ SECRETS_KEY: newKey.toString('base64'), SECRETS_KEY_PREVIOUS: oldKey.toString('base64') });
    refunds = refundsClient(current, live);
    await current.app.get(RefundAccountsRekeyer).runOnce();
    for (const id of ids) expect(await sealedOf(id)).toMatch(new RegExp(`^v1:${secretsKeyId(newKey)}:`));
    // The accounts moved, but the three keys' fingerprints did not: the previous key is still needed.
    expect(reports()).toEqual([
      expect.stringMatching(
        /re-encrypted 3 refund accounts; 0 .* 3 idempotency keys \(of refunds, and of payments created with a cash receipt\) still fingerprinted under the previous key: keep SECRETS_KEY_PREVIOUS until \d{4}-/,
      ),
    ]);
    // Meanwhile a retry still replays.
    const retried = await refunds.create(paymentId, body, keys[0]).expect(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body.data.id).toBe(ids[0]);

    // Once they expired, the report says the previous key can go.
    await current.sql(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = ANY ($1)`, [
      keys,
    ]);
    await current.app.get(RefundAccountsRekeyer).runOnce();
    expect(reports().at(-1)).toMatch(/re-encrypted 0 refund accounts; .*refunds no longer need SECRETS_KEY_PREVIOUS/);

    await start({ SECRETS_KEY: newKey.toString('base64') });
    for (const id of ids) expect(await queued(id)).toMatchObject({ refundAccount: ACCOUNT });
  });

  it('is why the report matters: without the previous key, a retry of a key fingerprinted under it is 422', async () => {
    const current = await start({ SECRETS_KEY: oldKey.toString('base64') });
    const live = await current.merchantWithKey('live', { live: true });
    const paymentId = await completedPayment(current, live, 9_000, true);
    const body = { amount: 1_000, refundAccount: ACCOUNT };
    await refundsClient(current, live).create(paymentId, body, 'dropped-too-early').expect(201);
    const rotated = await start({ SECRETS_KEY: newKey.toString('base64') });
    expectApiError(await refundsClient(rotated, live).create(paymentId, body, 'dropped-too-early'), {
      status: 422,
      code: 'idempotency_key_reused',
    });
  });
});
