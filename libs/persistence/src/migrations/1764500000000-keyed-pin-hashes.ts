// Relative: migrations also run from jest's global setup, where the @payhook/* paths are not mapped.
import { secretsKeyFrom } from '../../../config/src/secrets-key';
import { createHmac } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const BATCH = 1_000;

/**
 * Voucher PINs were stored as their plain SHA-256, which a dump turns back into a 12-digit PIN in
 * about 10^12 tries. Each stored digest becomes HMAC-SHA256(SECRETS_KEY, digest), what
 * apps/payments-api/src/money/vouchers/voucher-pin.ts keyedPinHash() stores from now on; no PIN is needed,
 * so no voucher is lost. The key is read from the environment as the apps read it.
 */
export class KeyedPinHashes1764500000000 implements MigrationInterface {
  name = 'KeyedPinHashes1764500000000';

  async up(db: QueryRunner): Promise<void> {
    const { key } = secretsKeyFrom(process.env);
    const rows = (await db.query(`SELECT id, pin_hash FROM vouchers ORDER BY id`)) as {
      id: string;
      pin_hash: string;
    }[];
    for (let at = 0; at < rows.length; at += BATCH) {
      const batch = rows.slice(at, at + BATCH);
      await db.query(
        `UPDATE vouchers v SET pin_hash = keyed.pin_hash
         FROM unnest($1::text[], $2::text[]) AS keyed(id, pin_hash) WHERE v.id = keyed.id`,
        [batch.map((row) => row.id), batch.map((row) => createHmac('sha256', key).update(row.pin_hash).digest('hex'))],
      );
    }
  }

  down(): Promise<void> {
    // The digests cannot be had back from their HMACs; vouchers stay keyed.
    return Promise.reject(new Error('KeyedPinHashes1764500000000 cannot be reverted'));
  }
}
