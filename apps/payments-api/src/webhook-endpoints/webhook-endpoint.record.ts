export interface WebhookEndpointRecord {
  merchantId: string;
  livemode: boolean;
  url: string;
  signingSecret: string;
}

export interface WebhookEndpointView {
  url: string;
  signingSecret: string;
  livemode: boolean;
}

export function toWebhookEndpointView(endpoint: WebhookEndpointRecord): WebhookEndpointView {
  return { url: endpoint.url, signingSecret: endpoint.signingSecret, livemode: endpoint.livemode };
}
