import { Injectable, Logger } from '@nestjs/common';
import { ApiKeyResolver, TtlCache, type AuthContext } from '@payhook/auth';
import { MerchantsRepository } from './merchants.repository';

/** A key's last use is written at most this often; the console shows it to the minute. */
const LAST_USED_EVERY_MS = 60_000;

/** The storage side of ApiKeyGuard. */
@Injectable()
export class ApiKeyLookup extends ApiKeyResolver {
  private readonly logger = new Logger(ApiKeyLookup.name);
  /** Keys whose use this instance recorded within the last minute: no write needed. */
  private readonly recentlyRecorded = new TtlCache<true>(LAST_USED_EVERY_MS);

  constructor(private readonly merchants: MerchantsRepository) {
    super();
  }

  async resolve(keyHash: string): Promise<AuthContext | null> {
    const auth = await this.merchants.resolveActiveKey(keyHash);
    if (auth) this.recordUse(auth.keyId);
    return auth;
  }

  /** Fire and forget: the request never waits for this write, and a failed write only costs a log line. */
  private recordUse(keyId: string): void {
    if (this.recentlyRecorded.get(keyId)) return;
    this.recentlyRecorded.set(keyId, true);
    this.merchants.touchApiKey(keyId).catch((error: unknown) => {
      this.logger.warn(`could not record the last use of ${keyId}: ${String(error)}`);
    });
  }
}
