import type { ErrorCode, PaymentStatus } from './payhook-contract';
import type { CreatePaymentBody, CreateWebhookEndpointBody, UpdateWebhookEndpointBody } from './payhook.client';
import type * as Reference from './openapi.generated';
import type {
  CreatedListenSession,
  CreatedPaymentView,
  PaymentCanceledEvent,
  PaymentCompletedEvent,
  PaymentEvent,
  PaymentExpiredEvent,
  PaymentFailedEvent,
  ListenSession,
  PaymentView,
  WebhookEndpoint,
} from './index';

/**
 * The SDK's types against the reference (issue 15): each pair must be assignable both ways, so a field
 * the document adds, drops or retypes fails `npm run typecheck` until the SDK follows. The reference
 * types are generated from docs/openapi.json (`npm run openapi`).
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const sdkMatchesOpenApi: [
  Same<CreatePaymentBody, Reference.CreatePaymentRequestDto>,
  Same<CreatedPaymentView, Reference.CreatedPayment>,
  Same<PaymentView, Reference.Payment>,
  Same<PaymentStatus, Reference.Payment['status']>,
  Same<PaymentCompletedEvent, Reference.PaymentCompletedEvent>,
  Same<PaymentFailedEvent, Reference.PaymentFailedEvent>,
  Same<PaymentCanceledEvent, Reference.PaymentCanceledEvent>,
  Same<PaymentExpiredEvent, Reference.PaymentExpiredEvent>,
  Same<PaymentEvent, Reference.PaymentEvent>,
  Same<ErrorCode, Reference.Error['error']['code']>,
  Same<WebhookEndpoint, Reference.WebhookEndpointResource>,
  Same<CreateWebhookEndpointBody, Reference.CreateWebhookEndpointRequestDto>,
  Same<UpdateWebhookEndpointBody, Reference.UpdateWebhookEndpointRequestDto>,
  Same<ListenSession, Reference.ListenSession>,
  Same<CreatedListenSession, Reference.CreatedListenSession>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true];
