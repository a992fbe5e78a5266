import { Inject, Injectable } from '@nestjs/common';
import { generateApiKey } from '@payhook/auth';
import { DEFAULT_TIME_ZONE, newId, type ApiKeyMode } from '@payhook/contracts';
import type { ApiKeyEntity } from './api-key.entity';
import type { MerchantEntity } from './merchant.entity';
import { MerchantException } from './merchant.exception';
import { MerchantsRepository } from './merchants.repository';
import { hashPassword } from './password-hash';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { AuditLog, OPERATOR_ACTOR, type AuditActor } from '../../core/audit';
import { countLoginsLocked, MAX_LOGINS_PER_ADDRESS } from '../team';

/**
 * Active keys a merchant's team may hold per mode. Each key has its own rate limit: without a cap,
 * keys made in the console would multiply it.
 */
export const MAX_OWN_KEYS_PER_MODE = 10;

const keyLimitReached = (mode: ApiKeyMode) =>
  // A console refusal only (the API never makes keys): the merchant's state, its keys, does not allow it.
  new MerchantException(
    'merchant_state_conflict',
    `A merchant has at most ${MAX_OWN_KEYS_PER_MODE} active ${mode} keys (a rolled key counts while it keeps ` +
      'working); revoke one first.',
  );

export interface NewMerchant {
  name: string;
  timeZone?: string;
  feeBps?: number;
  settlementDelayDays?: number;
}

/** The terms settlement records are made with; the operator may change them at any time. */
export type MerchantTerms = Partial<Pick<MerchantEntity, 'feeBps' | 'settlementDelayDays' | 'cashReceiptRequired'>>;

/** A key made in the console: its plain value is shown once. */
export interface IssuedOwnKey {
  id: string;
  mode: ApiKeyMode;
  key: string;
}

export interface IssuedApiKey {
  record: ApiKeyEntity;
  /** The plain key: returned once, never stored. */
  key: string;
}

@Injectable()
export class MerchantsService {
  constructor(
    private readonly merchants: MerchantsRepository,
    private readonly audit: AuditLog,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  create(input: NewMerchant): Promise<MerchantEntity> {
    return this.merchants.insertMerchant({
      id: newId('merchant'),
      name: input.name,
      status: 'review',
      timeZone: input.timeZone ?? DEFAULT_TIME_ZONE,
      feeBps: input.feeBps ?? this.env.DEFAULT_FEE_BPS,
      settlementDelayDays: input.settlementDelayDays ?? this.env.DEFAULT_SETTLEMENT_DELAY_DAYS,
    });
  }

  /**
   * New terms apply to payments completed from now on: earlier settlement records keep theirs, and
   * cashReceiptRequired self-issues for completions from then on.
   */
  async setTerms(id: string, terms: MerchantTerms): Promise<MerchantEntity> {
    await this.get(id);
    const { feeBps, settlementDelayDays, cashReceiptRequired } = terms;
    const given = Object.fromEntries(
      Object.entries({ feeBps, settlementDelayDays, cashReceiptRequired }).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(given).length > 0) await this.merchants.setTerms(id, given);
    return this.get(id);
  }

  async get(id: string): Promise<MerchantEntity> {
    const merchant = await this.merchants.findMerchant(id);
    if (!merchant) throw new MerchantException('resource_not_found', `No such merchant: ${id}.`, 'id');
    return merchant;
  }

  /** review → integrating, with the merchant's console login as its first owner. */
  async approve(id: string, consoleEmail: string, consolePassword: string): Promise<MerchantEntity> {
    const merchant = await this.get(id);
    if (merchant.status !== 'review') {
      throw new MerchantException('merchant_state_conflict', `Merchant ${id} is already ${merchant.status}.`);
    }
    const email = consoleEmail.toLowerCase();
    const passwordHash = await hashPassword(consolePassword);
    const ownerId = newId('member');
    // The first owner joins like any member: audited, and counted under the address's lock. An
    // address may have a login at several merchants (each its own password), so an invite
    // accepted elsewhere reserves nothing.
    const approved = await this.audit.audited(
      (made: boolean) =>
        made
          ? { actor: OPERATOR_ACTOR, clientAddress: null, merchantId: id, action: 'member.joined', target: ownerId }
          : null,
      async (sql) => {
        if ((await countLoginsLocked(sql, email)) >= MAX_LOGINS_PER_ADDRESS) {
          throw new MerchantException(
            'parameter_invalid',
            `consoleEmail has console logins at ${MAX_LOGINS_PER_ADDRESS} merchants already, the most one address may have.`,
            'consoleEmail',
          );
        }
        return this.merchants.approve(sql, id, email, ownerId, passwordHash);
      },
    );
    if (!approved) throw new MerchantException('merchant_state_conflict', `Merchant ${id} was approved meanwhile.`);
    return this.get(id);
  }

  /** How pages name the merchant's keys with these ids: `svc_<mode>_…<last 4>`, by id. */
  async maskedApiKeys(merchantId: string, ids: string[]): Promise<Map<string, string>> {
    const keys = await this.merchants.apiKeysById(merchantId, ids);
    return new Map(keys.map((key) => [key.id, `svc_${key.mode}_…${key.keyLast4}`]));
  }

  listApiKeys(merchantId: string): Promise<ApiKeyEntity[]> {
    return this.merchants.listApiKeys(merchantId);
  }

  /** The zone every time in the console is shown in; the caller has checked it is an IANA name. */
  async setTimeZone(id: string, timeZone: string): Promise<MerchantEntity> {
    if (!(await this.merchants.setTimeZone(id, timeZone))) {
      throw new MerchantException('resource_not_found', `No such merchant: ${id}.`, 'id');
    }
    return this.get(id);
  }

  async issueApiKey(merchantId: string, mode: ApiKeyMode): Promise<IssuedApiKey> {
    await this.get(merchantId);
    const { key, hash, last4 } = generateApiKey(mode);
    const record = await this.merchants.insertApiKey({
      id: newId('apiKey'),
      merchantId,
      mode,
      keyHash: hash,
      keyLast4: last4,
    });
    return { record, key };
  }

  /**
   * A key the merchant's team makes in the console: live keys only once the merchant is
   * live. Shown once; audited with the change.
   */
  async createOwnApiKey(merchantId: string, mode: ApiKeyMode, by: AuditActor): Promise<IssuedOwnKey> {
    const merchant = await this.get(merchantId);
    if (mode === 'live' && merchant.status !== 'live') {
      throw new MerchantException('live_mode_locked', 'Live keys open once the integration test has passed.');
    }
    const { key, hash, last4 } = generateApiKey(mode);
    const id = newId('apiKey');
    await this.audit.audited({ ...by, merchantId, action: 'api_key.created', target: id }, async (sql) => {
      const key = { id, merchantId, mode, keyHash: hash, keyLast4: last4 };
      if (!(await this.merchants.insertApiKeyWithin(sql, key, MAX_OWN_KEYS_PER_MODE))) throw keyLimitReached(mode);
    });
    return { id, mode, key };
  }

  /**
   * A new key of the same mode now; the old one keeps working for `overlapDays` (0 to 7), then stops.
   * Both in one transaction with the audit entry: never two live keys without a record, nor none.
   */
  async rollOwnApiKey(merchantId: string, keyId: string, overlapDays: number, by: AuditActor): Promise<IssuedOwnKey> {
    const merchant = await this.get(merchantId);
    const id = newId('apiKey');
    const issued = await this.audit.audited(
      { ...by, merchantId, action: 'api_key.rolled', target: keyId },
      async (sql) => {
        const old = await this.merchants.endApiKey(sql, merchantId, keyId, overlapDays * 86_400, true);
        if (!old) {
          throw new MerchantException('resource_not_found', `No active API key ${keyId} that was not rolled already.`);
        }
        if (old.mode === 'live' && merchant.status !== 'live') {
          throw new MerchantException('live_mode_locked', 'Live keys open once the integration test has passed.');
        }
        const fresh = generateApiKey(old.mode);
        const key = { id, merchantId, mode: old.mode, keyHash: fresh.hash, keyLast4: fresh.last4 };
        // The old key, still in its overlap, counts: rolls cannot pile keys up either.
        if (!(await this.merchants.insertApiKeyWithin(sql, key, MAX_OWN_KEYS_PER_MODE)))
          throw keyLimitReached(old.mode);
        return { id, mode: old.mode, key: fresh.key };
      },
    );
    return issued;
  }

  /** Revokes one of the merchant's own keys at once (within 5 s on every instance). */
  async revokeOwnApiKey(merchantId: string, keyId: string, by: AuditActor): Promise<void> {
    await this.audit.audited({ ...by, merchantId, action: 'api_key.revoked', target: keyId }, async (sql) => {
      if (!(await this.merchants.endApiKey(sql, merchantId, keyId, 0))) {
        throw new MerchantException('resource_not_found', `No such active API key: ${keyId}.`);
      }
    });
  }

  async revokeApiKey(id: string): Promise<ApiKeyEntity> {
    const revoked = await this.merchants.revokeApiKey(id);
    if (!revoked) throw new MerchantException('resource_not_found', `No such API key: ${id}.`, 'id');
    return revoked;
  }
}
