// The webhook room's door to deliveries that exist (docs/architecture.md): payments-api asks the
// webhook-dispatcher, which alone changes them, through the outbox; and records the CLI's listen attempts.
export { DeliveryRequests } from './delivery-requests';
export { ListenAttempts, type ListenAttempt, type RecordedListenAttempt } from './listen-attempts';
export { WebhookDeliveriesModule } from './webhook-deliveries.module';
