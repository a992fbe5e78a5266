import type { INestApplication } from '@nestjs/common';
import { modeSigningSecretContext, SecretsKeyring, secretsKeyId } from '@payhook/config';
import { dataSourceOptions } from '@payhook/persistence';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { SealedSigningSecrets1764900000000 } from '../../libs/persistence/src/migrations/1764900000000-sealed-signing-secrets';
import { EndpointBoundSigningSecrets1766600000000 } from '../../libs/persistence/src/migrations/1766600000000-endpoint-bound-signing-secrets';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { RecordingLogger } from '../support/recording-logger';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';
import { completedPayment, signatureCheck } from '../support/webhook-scenario';

jest.setTimeout(60_000);

/** Issue 16 item 4: webhook signing secrets are stored sealed under SECRETS_KEY, and follow its rotation. */
describe('signing secrets at rest', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  const [OLD, NEW] = [oldKey.toString('base64'), newKey.toString('base64')];
  let services: IsolatedServices;
  let receiver: WebhookReceiver;
  let logger: RecordingLogger;
  let api: PaymentsApiHarness | undefined;
  let dispatcher: INestApplication | undefined;

  /** Both apps on this spec's database, with the given keys; the dispatcher first, so the API's logger is the one kept. */
  async function start(keys: Record<string, string>): Promise<PaymentsApiHarness> {
    await stop();
    dispatcher = await startDispatcher({ ...services.env, ...keys });
    api = await PaymentsApiHarness.start({ ...services.env, ...keys }, logger);
    return api;
  }
  async function stop(): Promise<void> {
    await dispatcher?.close();
    await api?.stop();
    [dispatcher, api] = [undefined, undefined];
  }

  const storedSecrets = async (harness: PaymentsApiHarness, merchants: TestMerchant[]) =>
    harness.sql<{ merchant_id: string; signing_secret: string }>(
      `SELECT merchant_id, signing_secret FROM webhook_endpoints WHERE merchant_id = ANY($1) ORDER BY merchant_id`,
      [merchants.map((merchant) => merchant.merchantId)],
    );
  const keyIdOf = (stored: string) => stored.split(':')[1];

  /** A payment.completed of the merchant's, as it arrived at the receiver. */
  async function deliveredEvent(harness: PaymentsApiHarness, merchant: TestMerchant) {
    const { eventId } = await completedPayment(harness, merchant);
    const [delivery] = await pollUntil(
      async () => receiver.forEvent(eventId),
      (deliveries) => deliveries.length === 1,
    );
    return delivery;
  }

  beforeAll(async () => {
    services = await isolatedServices('sealed');
    receiver = await WebhookReceiver.start();
    logger = new RecordingLogger();
  });
  afterAll(async () => {
    await stop();
    await receiver?.stop();
    await services?.drop();
  });

  it('seals secrets under SECRETS_KEY, answers them plain, signs with them, and re-seals them under a new key', async () => {
    // Before the rotation: SECRETS_KEY is the old key.
    let harness = await start({ SECRETS_KEY: OLD });
    const shop = await harness.merchantWithKey('test');
    const saved = await harness.as(shop).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    const secret = saved.body.data.signingSecret as string;
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);

    // A row as the previous release stored it, plain, sealed by the migration under SECRETS_KEY.
    const legacy = await harness.merchantWithKey('test');
    const legacySecret = `whsec_${randomBytes(16).toString('hex')}`;
    await harness.sql(
      `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, signing_secret) VALUES ($1, $2, false, $3, $4)`,
      [`we_${randomBytes(12).toString('hex')}`, legacy.merchantId, receiver.url, legacySecret],
    );
    await migrateWith({ SECRETS_KEY: OLD });

    // An endpoint in a rotation's overlap: its rotated-out secret is sealed too, and moves with the key.
    const overlapped = await harness.merchantWithKey('test');
    const outgoing = (await harness.as(overlapped).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200))
      .body.data.signingSecret as string;
    await harness
      .as(overlapped)
      .post('/v1/webhook-endpoint/rotate-secret')
      .send({ previousSecretExpiresIn: 3_600 })
      .expect(200);

    const merchants = [shop, legacy, overlapped];
    const sealed = await storedSecrets(harness, merchants);
    expect(sealed).toHaveLength(3);
    for (const row of sealed) {
      expect(row.signing_secret).toMatch(/^v1:[0-9a-f]{8}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
      expect(row.signing_secret).not.toContain('whsec_');
      expect(keyIdOf(row.signing_secret)).toBe(secretsKeyId(oldKey));
    }
    expect((await harness.as(shop).get('/v1/webhook-endpoint').expect(200)).body.data.signingSecret).toBe(secret);
    expect((await harness.as(legacy).get('/v1/webhook-endpoint').expect(200)).body.data.signingSecret).toBe(
      legacySecret,
    );
    // The header is unchanged: one t=, one v1=, under the secret the merchant holds.
    const before = await deliveredEvent(harness, shop);
    expect(before.headers['service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(signatureCheck(before, secret)).toBe('valid');
    expect(signatureCheck(await deliveredEvent(harness, legacy), legacySecret)).toBe('valid');

    // The rotation: SECRETS_KEY is the new key, the old one is SECRETS_KEY_PREVIOUS. Rows move at boot.
    harness = await start({ SECRETS_KEY: NEW, SECRETS_KEY_PREVIOUS: OLD });
    const moved = await pollUntil(
      () => storedSecrets(harness, merchants),
      (rows) => rows.every((row) => keyIdOf(row.signing_secret) === secretsKeyId(newKey)),
    );
    expect(moved.map((row) => row.signing_secret)).not.toEqual(sealed.map((row) => row.signing_secret));
    const [previous] = await harness.sql<{ previous_signing_secret: string }>(
      `SELECT previous_signing_secret FROM webhook_endpoints WHERE merchant_id = $1`,
      [overlapped.merchantId],
    );
    expect(keyIdOf(previous.previous_signing_secret)).toBe(secretsKeyId(newKey));
    // The receiver still on the rotated-out secret keeps verifying through the key rotation.
    const overlapDelivery = await deliveredEvent(harness, overlapped);
    expect(() =>
      new Webhook(outgoing).verify(
        overlapDelivery.rawBody.toString('utf8'),
        overlapDelivery.headers as Record<string, string>,
      ),
    ).not.toThrow();
    const [left] = await harness.sql<{ count: number }>(
      `SELECT count(*)::int AS count FROM webhook_endpoints WHERE signing_secret LIKE $1 OR previous_signing_secret LIKE $1`,
      [`v1:${secretsKeyId(oldKey)}:%`],
    );
    expect(left.count).toBe(0);
    const report = await pollUntil(
      async () =>
        logger.lines.filter((line) => line.includes('re-encrypted') && line.includes('webhook signing secrets')),
      (lines) => lines.length > 0,
    );
    expect(report[0]).toContain(
      `re-encrypted 3 webhook signing secrets from SECRETS_KEY_PREVIOUS (key ${secretsKeyId(oldKey)}) ` +
        `to SECRETS_KEY (key ${secretsKeyId(newKey)}); 0 still under the previous key`,
    );
    expect((await harness.as(shop).get('/v1/webhook-endpoint').expect(200)).body.data.signingSecret).toBe(secret);
    expect(signatureCheck(await deliveredEvent(harness, shop), secret)).toBe('valid');
    expect(signatureCheck(await deliveredEvent(harness, legacy), legacySecret)).toBe('valid');

    // Once the log said 0 are left, SECRETS_KEY_PREVIOUS can go: nothing needs the old key any more.
    harness = await start({ SECRETS_KEY: NEW });
    expect((await harness.as(legacy).get('/v1/webhook-endpoint').expect(200)).body.data.signingSecret).toBe(
      legacySecret,
    );
    expect(signatureCheck(await deliveredEvent(harness, shop), secret)).toBe('valid');
    const rotated = await harness.as(shop).post('/v1/webhook-endpoint/rotate-secret').expect(200);
    const newSecret = rotated.body.data.signingSecret as string;
    expect(newSecret).not.toBe(secret);
    const [resealed] = await storedSecrets(harness, [shop]);
    expect(keyIdOf(resealed.signing_secret)).toBe(secretsKeyId(newKey));
    expect(resealed.signing_secret).not.toContain(newSecret);
    expect(signatureCheck(await deliveredEvent(harness, shop), newSecret)).toBe('valid');

    for (const line of logger.lines) {
      for (const plain of [secret, legacySecret, newSecret, OLD, NEW]) expect(line).not.toContain(plain);
    }
  });

  it('does not open a sealed secret copied into another merchant’s row', async () => {
    const harness = await start({ SECRETS_KEY: NEW });
    const [mine, theirs] = [await harness.merchantWithKey('test'), await harness.merchantWithKey('test')];
    for (const merchant of [mine, theirs]) {
      await harness.as(merchant).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    }
    await harness.sql(
      `UPDATE webhook_endpoints SET signing_secret = (SELECT signing_secret FROM webhook_endpoints WHERE merchant_id = $1)
       WHERE merchant_id = $2`,
      [mine.merchantId, theirs.merchantId],
    );
    // Bound to its own endpoint: read for the other merchant, it does not open (503, nothing answered).
    const copied = await harness.as(theirs).get('/v1/webhook-endpoint');
    expect(copied.status).toBe(503);
    expect(copied.body.error.code).toBe('service_unavailable');
    expect(copied.text).not.toContain('whsec_');
    const own = await harness.as(mine).get('/v1/webhook-endpoint').expect(200);
    expect(own.body.data.signingSecret).toMatch(/^whsec_/);
  });

  it('does not open a sealed secret copied into another endpoint of the same merchant and mode', async () => {
    const harness = await start({ SECRETS_KEY: NEW });
    const merchant = await harness.merchantWithKey('test');
    const create = async () =>
      (await harness.as(merchant).post('/v1/webhook-endpoints').send({ url: receiver.url }).expect(201)).body.data as {
        id: string;
        signingSecret: string;
      };
    const [first, second] = [await create(), await create()];
    await harness.sql(
      `UPDATE webhook_endpoints SET signing_secret = (SELECT signing_secret FROM webhook_endpoints WHERE id = $1)
       WHERE id = $2`,
      [first.id, second.id],
    );
    const copied = await harness.as(merchant).get(`/v1/webhook-endpoints/${second.id}`);
    expect(copied.status).toBe(503);
    expect(copied.text).not.toContain('whsec_');
    const own = await harness.as(merchant).get(`/v1/webhook-endpoints/${first.id}`).expect(200);
    expect(own.body.data.signingSecret).toBe(first.signingSecret);
  });

  it('stops the upgrade when a secret is sealed under a key the environment lacks, changing nothing', async () => {
    const harness = await start({ SECRETS_KEY: NEW });
    const merchant = await harness.merchantWithKey('test');
    const endpointId = `we_${randomBytes(12).toString('hex')}`;
    const elsewhere = new SecretsKeyring(randomBytes(32));
    const sealed = elsewhere.seal('whsec_sealed_elsewhere', modeSigningSecretContext({ ...merchant, livemode: false }));
    await harness.sql(
      `INSERT INTO webhook_endpoints (id, merchant_id, livemode, url, signing_secret) VALUES ($1, $2, false, $3, $4)`,
      [endpointId, merchant.merchantId, receiver.url, sealed],
    );
    const before = await harness.sql(`SELECT id, signing_secret FROM webhook_endpoints ORDER BY id`);
    await expect(migrateWith({ SECRETS_KEY: NEW })).rejects.toThrow(
      `sealed under keys ${elsewhere.currentKeyId}, neither SECRETS_KEY (${secretsKeyId(newKey)})`,
    );
    expect(await harness.sql(`SELECT id, signing_secret FROM webhook_endpoints ORDER BY id`)).toEqual(before);
    await harness.sql(`DELETE FROM webhook_endpoints WHERE id = $1`, [endpointId]);
  });

  /** The migrations read SECRETS_KEY from the environment, as they do when an app starts. */
  async function migrateWith(env: Record<string, string>): Promise<void> {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    const db = await new DataSource(
      dataSourceOptions({ url: services.env.DATABASE_URL, entities: [], applicationName: 'payhook-tests' }),
    ).initialize();
    const runner = db.createQueryRunner();
    try {
      // As an app's start runs them on a row of the release before: sealed for the merchant's mode, then bound to the endpoint.
      await new SealedSigningSecrets1764900000000().up(runner);
      await new EndpointBoundSigningSecrets1766600000000().up(runner);
    } finally {
      await runner.release();
      await db.destroy();
      for (const key of Object.keys(env)) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  }
});
