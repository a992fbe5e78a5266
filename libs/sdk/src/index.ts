// Everything here is reached through relative imports and node built-ins only: the SDK is published on its
// own as @payhook/sdk (package.json beside src/), so no monorepo path may appear at run time.
export * from './payhook.client';
export * from './raw-body.middleware';
export * from './verify-webhook';
// What a merchant needs from the contract, so `@payhook/sdk` is the only import it makes.
export {
  CURRENCY,
  WEBHOOK_HEADERS,
  type CreatedPaymentView,
  type Deposit,
  type EndpointDelivery,
  type ErrorCode,
  type EventDelivery,
  type EventRedelivery,
  type EventsRecovery,
  type EventSummary,
  type EventType,
  type EventView,
  type IntegrationTest,
  type IntegrationTestStarted,
  type ModeWebhookEndpoint,
  type Settlement,
  type TestVoucher,
  type ListEnvelope,
  type Metadata,
  type CreatedListenSession,
  type ListenSession,
  type PaymentCanceledEvent,
  type PaymentCompletedEvent,
  type PaymentEvent,
  type PaymentExpiredEvent,
  type PaymentFailedEvent,
  type PaymentStatus,
  type PaymentView,
  type RefundEvent,
  type RefundFailedEvent,
  type RefundSucceededEvent,
  type RefundView,
  type WebhookEndpoint,
  type WebhookAttempt,
  type WebhookEvent,
} from './payhook-contract';
export { DEFAULT_TOLERANCE_SECONDS, type WebhookSignatureErrorReason } from './webhook-signature';
