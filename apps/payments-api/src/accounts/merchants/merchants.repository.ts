import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AuthContext } from '@payhook/auth';
import type { ApiKeyMode, MerchantStatus } from '@payhook/contracts';
import { sqlRows, type Sql } from '@payhook/persistence';
import { DataSource, In, IsNull } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { MerchantEntity } from './merchant.entity';

@Injectable()
export class MerchantsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insertMerchant(
    merchant: Pick<MerchantEntity, 'id' | 'name' | 'status' | 'timeZone' | 'feeBps' | 'settlementDelayDays'>,
  ): Promise<MerchantEntity> {
    return this.db.getRepository(MerchantEntity).save({ ...merchant, consoleEmail: null });
  }

  findMerchant(id: string): Promise<MerchantEntity | null> {
    return this.db.getRepository(MerchantEntity).findOneBy({ id });
  }

  /**
   * review → integrating, and the console login as the merchant's first owner, in one statement of
   * `sql`'s transaction (which holds the address's lock); false when the merchant was not in review.
   */
  async approve(sql: Sql, id: string, consoleEmail: string, ownerId: string, passwordHash: string): Promise<boolean> {
    const rows = await sql(
      `WITH approved AS (
         UPDATE merchants SET status = 'integrating', console_email = $2, updated_at = now()
         WHERE id = $1 AND status = 'review' RETURNING id
       )
       -- The operator vouches for the address it approves: proven.
       INSERT INTO merchant_members (id, merchant_id, email, password_hash, role, address_proven)
       SELECT $3, id, $2, $4, 'owner', true FROM approved RETURNING merchant_id`,
      [id, consoleEmail, ownerId, passwordHash],
    );
    return rows.length === 1;
  }

  insertApiKey(key: Pick<ApiKeyEntity, 'id' | 'merchantId' | 'mode' | 'keyHash' | 'keyLast4'>): Promise<ApiKeyEntity> {
    return this.db.getRepository(ApiKeyEntity).save({ ...key, lastUsedAt: null, revokedAt: null });
  }

  /** Of the merchant's keys with these ids (revoked ones included), each key's mode and last 4 characters. */
  async apiKeysById(merchantId: string, ids: string[]): Promise<Pick<ApiKeyEntity, 'id' | 'mode' | 'keyLast4'>[]> {
    if (ids.length === 0) return [];
    return this.db
      .getRepository(ApiKeyEntity)
      .find({ select: { id: true, mode: true, keyLast4: true }, where: { merchantId, id: In(ids) } });
  }

  /** The merchant's keys, newest first, revoked ones included (the console shows them as revoked). */
  listApiKeys(merchantId: string): Promise<ApiKeyEntity[]> {
    return this.db
      .getRepository(ApiKeyEntity)
      .find({ where: { merchantId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /**
   * Records that a key was used, at most once a minute per key whatever the number of API
   * instances: the condition makes a second writer within the minute a no-op.
   */
  async touchApiKey(id: string): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE api_keys SET last_used_at = now()
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }

  async setTerms(
    id: string,
    terms: Partial<Pick<MerchantEntity, 'feeBps' | 'settlementDelayDays' | 'cashReceiptRequired'>>,
  ) {
    await this.db.getRepository(MerchantEntity).update({ id }, terms);
  }

  async setTimeZone(id: string, timeZone: string): Promise<boolean> {
    const result = await this.db.getRepository(MerchantEntity).update({ id }, { timeZone });
    return result.affected === 1;
  }

  findApiKey(id: string): Promise<ApiKeyEntity | null> {
    return this.db.getRepository(ApiKeyEntity).findOneBy({ id });
  }

  /** Sets revoked_at once; a second revoke keeps the first time. */
  async revokeApiKey(id: string): Promise<ApiKeyEntity | null> {
    await this.db.getRepository(ApiKeyEntity).update({ id, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    return this.findApiKey(id);
  }

  /** Inserts a key within `sql`'s transaction (a console change with its audit entry). */
  async insertApiKeyWith(sql: Sql, key: Pick<ApiKeyEntity, 'id' | 'merchantId' | 'mode' | 'keyHash' | 'keyLast4'>) {
    await sql(`INSERT INTO api_keys (id, merchant_id, mode, key_hash, key_last4) VALUES ($1, $2, $3, $4, $5)`, [
      key.id,
      key.merchantId,
      key.mode,
      key.keyHash,
      key.keyLast4,
    ]);
  }

  /**
   * Inserts the key unless its merchant already has `max` active keys of its mode (neither revoked
   * nor past a roll's expiry: a rolled key still in its overlap counts); false then. Counted under a
   * lock of the merchant's keys of that mode, held by `sql`'s transaction, so two at once cannot
   * both take the last place.
   */
  async insertApiKeyWithin(
    sql: Sql,
    key: Pick<ApiKeyEntity, 'id' | 'merchantId' | 'mode' | 'keyHash' | 'keyLast4'>,
    max: number,
  ): Promise<boolean> {
    await sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`api-keys:${key.merchantId}:${key.mode}`]);
    const [{ active }] = await sql<{ active: number }>(
      `SELECT count(*)::int AS active FROM api_keys
       WHERE merchant_id = $1 AND mode = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [key.merchantId, key.mode],
    );
    if (active >= max) return false;
    await this.insertApiKeyWith(sql, key);
    return true;
  }

  /**
   * Ends a merchant's own active key `after` seconds from now (0: at once, as revoked); null when it
   * is not the merchant's, or already revoked or expired. An earlier expiry is never pushed later.
   * `onlyUnrolled`: null also for a key already ending after a roll, so a roll happens once per key
   * (a second submit of the form makes no second new key).
   */
  async endApiKey(
    sql: Sql,
    merchantId: string,
    id: string,
    afterSeconds: number,
    onlyUnrolled = false,
  ): Promise<{ mode: ApiKeyMode } | null> {
    const [row] = await sql<{ mode: ApiKeyMode }>(
      `UPDATE api_keys SET
         revoked_at = CASE WHEN $3 = 0 THEN now() END,
         expires_at = CASE WHEN $3 > 0 THEN LEAST(coalesce(expires_at, 'infinity'), now() + make_interval(secs => $3)) END
       WHERE merchant_id = $1 AND id = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
         AND NOT ($4 AND expires_at IS NOT NULL)
       RETURNING mode`,
      [merchantId, id, afterSeconds, onlyUnrolled],
    );
    return row ?? null;
  }

  /** The guard's lookup: one indexed join, active keys only (neither revoked nor past a roll's expiry). */
  async resolveActiveKey(keyHash: string): Promise<AuthContext | null> {
    const rows = await sqlRows<{ key_id: string; merchant_id: string; mode: ApiKeyMode; status: MerchantStatus }>(
      this.db,
      `SELECT k.id AS key_id, k.merchant_id, k.mode, m.status
       FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())`,
      [keyHash],
    );
    const [row] = rows;
    if (!row) return null;
    return {
      keyId: row.key_id,
      merchantId: row.merchant_id,
      mode: row.mode,
      livemode: row.mode === 'live',
      merchantStatus: row.status,
    };
  }
}
