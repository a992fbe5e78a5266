import type { ApiKeyEntity } from './api-key.entity';
import type { MerchantEntity } from './merchant.entity';
import type { IntegrationTestView } from '../../webhooks/integration-tests';

export function toMerchantView(merchant: MerchantEntity, latestIntegrationTest: IntegrationTestView | null = null) {
  return {
    id: merchant.id,
    name: merchant.name,
    status: merchant.status,
    timeZone: merchant.timeZone,
    feeBps: merchant.feeBps,
    settlementDelayDays: merchant.settlementDelayDays,
    cashReceiptRequired: merchant.cashReceiptRequired,
    consoleEmail: merchant.consoleEmail,
    createdAt: merchant.createdAt.toISOString(),
    latestIntegrationTest,
  };
}

/** A key as the operator sees it after creation: masked, never the secret. */
export function toApiKeyView(key: ApiKeyEntity) {
  return {
    id: key.id,
    merchantId: key.merchantId,
    mode: key.mode,
    maskedKey: `svc_${key.mode}_…${key.keyLast4}`,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
