export * from './payhook.client';
export * from './raw-body.middleware';
export * from './verify-webhook';
// What a merchant needs from the contract, so `@payhook/sdk` is the only import it makes.
export {
  CURRENCY,
  WEBHOOK_HEADERS,
  type CreatedPaymentView,
  type ErrorCode,
  type ListEnvelope,
  type PaymentCanceledEvent,
  type PaymentCompletedEvent,
  type PaymentEvent,
  type PaymentExpiredEvent,
  type PaymentFailedEvent,
  type PaymentStatus,
  type PaymentView,
} from '@payhook/contracts';
export { DEFAULT_TOLERANCE_SECONDS, type WebhookSignatureErrorReason } from '@payhook/signing';
