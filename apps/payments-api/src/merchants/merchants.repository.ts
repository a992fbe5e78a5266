import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AuthContext } from '@payhook/auth';
import type { ApiKeyMode, MerchantStatus } from '@payhook/contracts';
import { sqlRows } from '@payhook/persistence';
import { DataSource, IsNull } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { MerchantEntity } from './merchant.entity';

@Injectable()
export class MerchantsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insertMerchant(
    merchant: Pick<MerchantEntity, 'id' | 'name' | 'status' | 'timeZone' | 'feeBps' | 'settlementDelayDays'>,
  ): Promise<MerchantEntity> {
    return this.db.getRepository(MerchantEntity).save({ ...merchant, consoleEmail: null, consolePasswordHash: null });
  }

  findMerchant(id: string): Promise<MerchantEntity | null> {
    return this.db.getRepository(MerchantEntity).findOneBy({ id });
  }

  /** Moves a merchant between statuses only from the expected one; false when it was not there. */
  async approve(id: string, consoleEmail: string, consolePasswordHash: string): Promise<boolean> {
    const result = await this.db
      .getRepository(MerchantEntity)
      .update({ id, status: 'review' }, { status: 'integrating', consoleEmail, consolePasswordHash });
    return result.affected === 1;
  }

  findByConsoleEmail(email: string): Promise<MerchantEntity | null> {
    return this.db.getRepository(MerchantEntity).findOneBy({ consoleEmail: email });
  }

  async isConsoleEmailTaken(email: string): Promise<boolean> {
    return this.db.getRepository(MerchantEntity).existsBy({ consoleEmail: email });
  }

  insertApiKey(key: Pick<ApiKeyEntity, 'id' | 'merchantId' | 'mode' | 'keyHash' | 'keyLast4'>): Promise<ApiKeyEntity> {
    return this.db.getRepository(ApiKeyEntity).save({ ...key, lastUsedAt: null, revokedAt: null });
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

  async setSettlementTerms(id: string, terms: Partial<Pick<MerchantEntity, 'feeBps' | 'settlementDelayDays'>>) {
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

  /** The guard's lookup: one indexed join, active keys only. */
  async resolveActiveKey(keyHash: string): Promise<AuthContext | null> {
    const rows = await sqlRows<{ key_id: string; merchant_id: string; mode: ApiKeyMode; status: MerchantStatus }>(
      this.db,
      `SELECT k.id AS key_id, k.merchant_id, k.mode, m.status
       FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
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
