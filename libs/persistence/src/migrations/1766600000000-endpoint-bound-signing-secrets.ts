// Relative: migrations also run from jest's global setup, where the @payhook/* paths are not mapped.
import {
  modeSigningSecretContext,
  SealedSecretError,
  signingSecretContext,
  type SecretsKeyring,
} from '../../../config/src/sealed-secret';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { keyringFromEnvironment } from './migration-keyring';

const BATCH = 1_000;

interface EndpointSecretsRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  signing_secret: string;
  previous_signing_secret: string | null;
}

type Context = (row: { id: string; merchantId: string; livemode: boolean }) => string;

/**
 * Each endpoint's secrets (current and rotated-out), opened under `from` and sealed again under
 * `to`, with the current key. A value that does not open is left as it is: it did not open before
 * either, and the apps answer it as they always did (503 for the endpoint, never a wrong secret).
 */
async function rebind(db: QueryRunner, from: Context, to: Context): Promise<void> {
  const rows = (await db.query(
    `SELECT id, merchant_id, livemode, signing_secret, previous_signing_secret FROM webhook_endpoints ORDER BY id`,
  )) as EndpointSecretsRow[];
  if (rows.length === 0) return;
  const keyring: SecretsKeyring = keyringFromEnvironment();
  const moved = rows.map((row) => {
    const endpoint = { id: row.id, merchantId: row.merchant_id, livemode: row.livemode };
    const move = <T extends string | null>(stored: T): T => {
      if (stored === null) return stored;
      try {
        return keyring.seal(keyring.open(stored, from(endpoint)), to(endpoint)) as T;
      } catch (error) {
        if (error instanceof SealedSecretError) return stored;
        throw error;
      }
    };
    return { id: row.id, secret: move(row.signing_secret), previous: move(row.previous_signing_secret) };
  });
  for (let at = 0; at < moved.length; at += BATCH) {
    const batch = moved.slice(at, at + BATCH);
    await db.query(
      `UPDATE webhook_endpoints w SET signing_secret = r.secret, previous_signing_secret = r.previous
       FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, secret, previous)
       WHERE w.id = r.id`,
      [batch.map((row) => row.id), batch.map((row) => row.secret), batch.map((row) => row.previous)],
    );
  }
}

/**
 * A sealed signing secret was bound to its merchant and mode, from when each had one endpoint: copied
 * into another endpoint's row of the same merchant and mode, it opened there. Each is now bound to its
 * own endpoint (its id in the sealed value's additional data); the secrets themselves do not change.
 */
export class EndpointBoundSigningSecrets1766600000000 implements MigrationInterface {
  name = 'EndpointBoundSigningSecrets1766600000000';

  async up(db: QueryRunner): Promise<void> {
    await rebind(db, modeSigningSecretContext, signingSecretContext);
  }

  async down(db: QueryRunner): Promise<void> {
    await rebind(db, signingSecretContext, modeSigningSecretContext);
  }
}
