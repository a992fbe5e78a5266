import { Inject, Injectable } from '@nestjs/common';
import { generateApiKey } from '@payhook/auth';
import { DEFAULT_TIME_ZONE, newId, type ApiKeyMode } from '@payhook/contracts';
import { isUniqueViolation } from '@payhook/persistence';
import type { ApiKeyEntity } from './api-key.entity';
import type { MerchantEntity } from './merchant.entity';
import { MerchantException } from './merchant.exception';
import { MerchantsRepository } from './merchants.repository';
import { hashPassword } from './password-hash';
import { PaymentsApiEnv } from '../config/payments-api.env';

export interface NewMerchant {
  name: string;
  timeZone?: string;
  feeBps?: number;
  settlementDelayDays?: number;
}

/** The terms settlement records are made with; the operator may change them at any time. */
export type SettlementTerms = Partial<Pick<MerchantEntity, 'feeBps' | 'settlementDelayDays'>>;

export interface IssuedApiKey {
  record: ApiKeyEntity;
  /** The plain key: returned once, never stored. */
  key: string;
}

@Injectable()
export class MerchantsService {
  constructor(
    private readonly merchants: MerchantsRepository,
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

  /** New terms apply to payments completed from now on; earlier settlement records keep theirs. */
  async setSettlementTerms(id: string, terms: SettlementTerms): Promise<MerchantEntity> {
    await this.get(id);
    if (terms.feeBps !== undefined || terms.settlementDelayDays !== undefined) {
      await this.merchants.setSettlementTerms(id, terms);
    }
    return this.get(id);
  }

  async get(id: string): Promise<MerchantEntity> {
    const merchant = await this.merchants.findMerchant(id);
    if (!merchant) throw new MerchantException('resource_not_found', `No such merchant: ${id}.`, 'id');
    return merchant;
  }

  /** The merchant whose console login has this (lower-case) email, with its password hash. */
  findByConsoleEmail(email: string): Promise<MerchantEntity | null> {
    return this.merchants.findByConsoleEmail(email);
  }

  /** review → integrating, with the merchant's console login. */
  async approve(id: string, consoleEmail: string, consolePassword: string): Promise<MerchantEntity> {
    const merchant = await this.get(id);
    if (merchant.status !== 'review') {
      throw new MerchantException('merchant_state_conflict', `Merchant ${id} is already ${merchant.status}.`);
    }
    const email = consoleEmail.toLowerCase();
    const emailTaken = () =>
      new MerchantException('parameter_invalid', 'consoleEmail is already used by another merchant.', 'consoleEmail');
    if (await this.merchants.isConsoleEmailTaken(email)) throw emailTaken();
    const passwordHash = await hashPassword(consolePassword);
    // The unique index decides a race between two approvals with one email.
    const approved = await this.merchants.approve(id, email, passwordHash).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    });
    if (!approved) throw new MerchantException('merchant_state_conflict', `Merchant ${id} was approved meanwhile.`);
    return this.get(id);
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

  async revokeApiKey(id: string): Promise<ApiKeyEntity> {
    const revoked = await this.merchants.revokeApiKey(id);
    if (!revoked) throw new MerchantException('resource_not_found', `No such API key: ${id}.`, 'id');
    return revoked;
  }
}
