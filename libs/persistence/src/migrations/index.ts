import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { Webhooks1763800000000 } from './1763800000000-webhooks';
import { IntegrationTests1763900000000 } from './1763900000000-integration-tests';
import { Console1764000000000 } from './1764000000000-console';
import { LiveMoney1764100000000 } from './1764100000000-live-money';
import { EndpointHealth1764200000000 } from './1764200000000-endpoint-health';
import { ListIndexes1764300000000 } from './1764300000000-list-indexes';
import { AuthFailures1764400000000 } from './1764400000000-auth-failures';
import { KeyedPinHashes1764500000000 } from './1764500000000-keyed-pin-hashes';
import { WebhookQueue1764600000000 } from './1764600000000-webhook-queue';
import { EveryOutcomeEvent1764700000000 } from './1764700000000-every-outcome-event';
import { BusinessDays1764800000000 } from './1764800000000-business-days';
import { SealedSigningSecrets1764900000000 } from './1764900000000-sealed-signing-secrets';
import { MessageHeaders1765000000000 } from './1765000000000-message-headers';
import { SettlementsDayOrder1765100000000 } from './1765100000000-settlements-day-order';
import { SealedPinDigests1765200000000 } from './1765200000000-sealed-pin-digests';
import { Refunds1765300000000 } from './1765300000000-refunds';
import { PaymentScopedReferences1765400000000 } from './1765400000000-payment-scoped-references';
import { SecretOverlap1765500000000 } from './1765500000000-secret-overlap';
import { SeveralEndpoints1765600000000 } from './1765600000000-several-endpoints';
import { RoomForRefundUpdates1765700000000 } from './1765700000000-room-for-refund-updates';
import { SharedRateLimits1765800000000 } from './1765800000000-shared-rate-limits';
import { MerchantTeam1765900000000 } from './1765900000000-merchant-team';
import { WebhookNotices1765950000000 } from './1765950000000-webhook-notices';
import { ListenSessions1765970000000 } from './1765970000000-listen-sessions';
import { StatementsAlone1766000000000 } from './1766000000000-statements-alone';
import { SecondStepThrottle1766100000000 } from './1766100000000-second-step-throttle';
import { InviteClaims1766200000000 } from './1766200000000-invite-claims';
import { InviteLimits1766300000000 } from './1766300000000-invite-limits';
import { KeyedRecoveryCodes1766400000000 } from './1766400000000-keyed-recovery-codes';
import { PasswordResets1766500000000 } from './1766500000000-password-resets';
import { EndpointBoundSigningSecrets1766600000000 } from './1766600000000-endpoint-bound-signing-secrets';
import { LoginsPerMerchant1766700000000 } from './1766700000000-logins-per-merchant';
import { RecoveriesApplied1766800000000 } from './1766800000000-recoveries-applied';
import { VoucherHoldsSettledByTheLedger1766900000000 } from './1766900000000-voucher-holds-settled-by-the-ledger';
import { RecoveriesFromTheRow1767000000000 } from './1767000000000-recoveries-from-the-row';
import { MemberLanguage1767100000000 } from './1767100000000-member-language';
import { TaxBreakdownAndMetadata1767200000000 } from './1767200000000-tax-breakdown-and-metadata';
import { RefundHeldTaxFree1767210000000 } from './1767210000000-refund-held-tax-free';
import { CashReceipts1767300000000 } from './1767300000000-cash-receipts';
import { Escrow1767400000000 } from './1767400000000-escrow';

/** Listed explicitly: bundled builds cannot glob, and the order is the history. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  Webhooks1763800000000,
  IntegrationTests1763900000000,
  Console1764000000000,
  LiveMoney1764100000000,
  EndpointHealth1764200000000,
  ListIndexes1764300000000,
  AuthFailures1764400000000,
  KeyedPinHashes1764500000000,
  WebhookQueue1764600000000,
  EveryOutcomeEvent1764700000000,
  BusinessDays1764800000000,
  SealedSigningSecrets1764900000000,
  MessageHeaders1765000000000,
  SettlementsDayOrder1765100000000,
  SealedPinDigests1765200000000,
  Refunds1765300000000,
  PaymentScopedReferences1765400000000,
  SecretOverlap1765500000000,
  SeveralEndpoints1765600000000,
  RoomForRefundUpdates1765700000000,
  SharedRateLimits1765800000000,
  MerchantTeam1765900000000,
  WebhookNotices1765950000000,
  ListenSessions1765970000000,
  StatementsAlone1766000000000,
  SecondStepThrottle1766100000000,
  InviteClaims1766200000000,
  InviteLimits1766300000000,
  KeyedRecoveryCodes1766400000000,
  PasswordResets1766500000000,
  EndpointBoundSigningSecrets1766600000000,
  LoginsPerMerchant1766700000000,
  RecoveriesApplied1766800000000,
  VoucherHoldsSettledByTheLedger1766900000000,
  RecoveriesFromTheRow1767000000000,
  MemberLanguage1767100000000,
  TaxBreakdownAndMetadata1767200000000,
  RefundHeldTaxFree1767210000000,
  CashReceipts1767300000000,
  Escrow1767400000000,
];
