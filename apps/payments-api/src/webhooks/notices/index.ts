// The webhook notices feature's door: what the composition root and the console may use of it.
// Its module, for the sender's periodic task and the console's banner.
export { WebhookNoticesModule } from './webhook-notices.module';
// The endpoints in trouble, which the console's webhook banner shows.
export { WebhookNoticesRepository, type EndpointInTrouble } from './webhook-notices.repository';
