import { Inject, Injectable } from '@nestjs/common';
import { EVENT_TYPES, randomBase62, type EventType } from '@payhook/contracts';
import { PaymentsApiEnv } from '../config/payments-api.env';
import { isHttpsUrl, isPrivateHost } from '../http/validators';
import type { MerchantScope } from '@payhook/auth';
import { WebhookEndpointException } from './webhook-endpoint.exception';
import type { WebhookEndpointRecord } from './webhook-endpoint.record';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** `whsec_` + 32 base62 characters (≈190 bits). */
const newSigningSecret = () => `whsec_${randomBase62(32)}`;

@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    @Inject(PaymentsApiEnv) private readonly env: PaymentsApiEnv,
  ) {}

  async get(scope: MerchantScope): Promise<WebhookEndpointRecord> {
    const endpoint = await this.endpoints.find(scope);
    if (!endpoint) throw this.notSet(scope);
    return endpoint;
  }

  /**
   * Setting an endpoint does not by itself send older events (DESIGN.md §5). `enabledEvents` is kept
   * in the order of EVENT_TYPES without repeats; left out, an existing endpoint keeps its own.
   */
  put(scope: MerchantScope, url: string, enabledEvents?: EventType[]): Promise<WebhookEndpointRecord> {
    if (!this.env.allowPrivateWebhookUrls) {
      if (scope.livemode && !isHttpsUrl(url)) {
        throw new WebhookEndpointException('parameter_invalid', 'url must use https with a live key.', 'url');
      }
      // Names are checked after DNS at every delivery; a private address written out is refused now.
      if (isPrivateHost(new URL(url).hostname)) {
        throw new WebhookEndpointException(
          'parameter_invalid',
          'url must not point at a loopback, private or link-local address.',
          'url',
        );
      }
    }
    const types = enabledEvents ? EVENT_TYPES.filter((type) => enabledEvents.includes(type)) : null;
    return this.endpoints.upsert(scope, url, types, newSigningSecret());
  }

  /**
   * The new secret signs every attempt from now on, retries of older events included; the one it
   * replaces keeps signing `webhook-signature` beside it for `previousSecretExpiresIn` seconds.
   */
  async rotateSecret(scope: MerchantScope, previousSecretExpiresIn = 0): Promise<WebhookEndpointRecord> {
    const endpoint = await this.endpoints.replaceSecret(scope, newSigningSecret(), previousSecretExpiresIn);
    if (!endpoint) throw this.notSet(scope);
    return endpoint;
  }

  private notSet(scope: MerchantScope): WebhookEndpointException {
    const mode = scope.livemode ? 'live' : 'test';
    return new WebhookEndpointException(
      'resource_not_found',
      `No webhook endpoint is set for ${mode} mode yet: PUT /v1/webhook-endpoint {url} first.`,
    );
  }
}
