// Relative: migrations also run from jest's global setup, where the @payhook/* paths are not mapped.
import { modeSigningSecretContext, sealedKeyId } from '../../../config/src/sealed-secret';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { keyringFromEnvironment } from './migration-keyring';

const BATCH = 1_000;

interface EndpointSecretRow {
  merchant_id: string;
  livemode: boolean;
  signing_secret: string;
}

async function rewrite(db: QueryRunner, rows: { merchantId: string; livemode: boolean; secret: string }[]) {
  for (let at = 0; at < rows.length; at += BATCH) {
    const batch = rows.slice(at, at + BATCH);
    await db.query(
      `UPDATE webhook_endpoints w SET signing_secret = r.signing_secret
       FROM unnest($1::text[], $2::boolean[], $3::text[]) AS r(merchant_id, livemode, signing_secret)
       WHERE w.merchant_id = r.merchant_id AND w.livemode = r.livemode`,
      [batch.map((row) => row.merchantId), batch.map((row) => row.livemode), batch.map((row) => row.secret)],
    );
  }
}

/**
 * Webhook signing secrets were stored plain, so a database dump let anyone sign webhooks every
 * merchant would trust. Each plain `whsec_…` is sealed in place with AES-256-GCM under SECRETS_KEY
 * for its merchant and mode (libs/config/src/sealed-secret.ts; a later migration binds each to its
 * endpoint); the secret itself does not change, so no merchant has to do anything and no endpoint is
 * lost. The key is read from the environment as the apps read it. Rows already sealed are left.
 */
export class SealedSigningSecrets1764900000000 implements MigrationInterface {
  name = 'SealedSigningSecrets1764900000000';

  async up(db: QueryRunner): Promise<void> {
    const keyring = keyringFromEnvironment();
    const rows = (await db.query(
      `SELECT merchant_id, livemode, signing_secret FROM webhook_endpoints ORDER BY merchant_id, livemode`,
    )) as EndpointSecretRow[];
    const plain = rows.filter((row) => sealedKeyId(row.signing_secret) === null);
    await rewrite(
      db,
      plain.map((row) => {
        const endpoint = { merchantId: row.merchant_id, livemode: row.livemode };
        return { ...endpoint, secret: keyring.seal(row.signing_secret, modeSigningSecretContext(endpoint)) };
      }),
    );
  }

  /** Back to plain text; a row that opens under neither key stops it (and the transaction rolls back). */
  async down(db: QueryRunner): Promise<void> {
    const keyring = keyringFromEnvironment();
    const rows = (await db.query(
      `SELECT merchant_id, livemode, signing_secret FROM webhook_endpoints ORDER BY merchant_id, livemode`,
    )) as EndpointSecretRow[];
    const sealed = rows.filter((row) => sealedKeyId(row.signing_secret) !== null);
    await rewrite(
      db,
      sealed.map((row) => {
        const endpoint = { merchantId: row.merchant_id, livemode: row.livemode };
        return { ...endpoint, secret: keyring.open(row.signing_secret, modeSigningSecretContext(endpoint)) };
      }),
    );
  }
}
