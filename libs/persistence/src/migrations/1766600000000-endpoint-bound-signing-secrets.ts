// Relative: migrations also run from jest's global setup, where the @payhook/* paths are not mapped.
import {
  modeSigningSecretContext,
  SealedSecretError,
  sealedKeyId,
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
 * `to`, with the current key. A value sealed under a key that is neither SECRETS_KEY nor
 * SECRETS_KEY_PREVIOUS stops the migration (and the start): with the right key it would open, and
 * once re-bound it could not be fixed by setting the key. A value that does not open under a key
 * the keyring has (changed, or copied from another merchant's row) is left as it is: it never
 * opened. Each row is replaced only if it still holds what was read.
 */
async function rebind(db: QueryRunner, from: Context, to: Context): Promise<void> {
  const rows = (await db.query(
    `SELECT id, merchant_id, livemode, signing_secret, previous_signing_secret FROM webhook_endpoints ORDER BY id`,
  )) as EndpointSecretsRow[];
  if (rows.length === 0) return;
  const keyring: SecretsKeyring = keyringFromEnvironment();
  const known = new Set([keyring.currentKeyId, keyring.previousKeyId]);
  const foreign = rows.flatMap((row) =>
    [row.signing_secret, row.previous_signing_secret].flatMap((stored) => {
      const keyId = stored === null ? null : sealedKeyId(stored);
      return keyId !== null && !known.has(keyId) ? [keyId] : [];
    }),
  );
  if (foreign.length > 0) {
    throw new Error(
      `${foreign.length} webhook signing secrets are sealed under keys ${[...new Set(foreign)].join(', ')}, ` +
        `neither SECRETS_KEY (${keyring.currentKeyId}) nor SECRETS_KEY_PREVIOUS: set the key they were sealed ` +
        'under (as SECRETS_KEY_PREVIOUS during a rotation) and start again',
    );
  }
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
    return { row, secret: move(row.signing_secret), previous: move(row.previous_signing_secret) };
  });
  for (let at = 0; at < moved.length; at += BATCH) {
    const batch = moved.slice(at, at + BATCH);
    await db.query(
      `UPDATE webhook_endpoints w SET signing_secret = r.secret, previous_signing_secret = r.previous
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
            AS r(id, was, previous_was, secret, previous)
       WHERE w.id = r.id AND w.signing_secret = r.was
         AND w.previous_signing_secret IS NOT DISTINCT FROM r.previous_was`,
      [
        batch.map(({ row }) => row.id),
        batch.map(({ row }) => row.signing_secret),
        batch.map(({ row }) => row.previous_signing_secret),
        batch.map(({ secret }) => secret),
        batch.map(({ previous }) => previous),
      ],
    );
  }
}

/**
 * A sealed signing secret was bound to its merchant and mode, from when each had one endpoint: copied
 * into another endpoint's row of the same merchant and mode, it opened there. Each is now bound to its
 * own endpoint (its id in the sealed value's additional data); the secrets themselves do not change.
 * Old instances of either app cannot open a re-bound secret: stop them before starting the new ones
 * (as for SealedSigningSecrets1764900000000, ADR 0011).
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
