import { EVENT_TYPES } from '@payhook/contracts';
import { id, instant, nullable, object, text, type Schema } from '../../platform/openapi/schema-builders';

/*
 * Each shape with its example recorded from a real run of payhook (the resource's from a merchant
 * with two endpoints, the accounting one shown). Two parts, one per controller, since the documents
 * list the listen sessions' shapes between them (surfaces/docs/openapi.document.ts).
 */

/** The merchant's one endpoint (`/v1/webhook-endpoint`), as before several endpoints. */
export const WEBHOOK_ENDPOINT_SCHEMAS: Record<string, Schema> = {
  WebhookEndpoint: {
    ...object({
      url: { type: 'string', format: 'uri' },
      signingSecret: { type: 'string', pattern: '^whsec_' },
      livemode: { type: 'boolean' },
      enabledEvents: { type: 'array', items: { enum: [...EVENT_TYPES] } },
      status: { enum: ['enabled', 'disabled'] },
      failingSince: nullable(instant),
      consecutiveFailures: { type: 'integer', minimum: 0 },
      lastError: nullable({ type: 'string' }),
      disabledAt: nullable(instant),
    }),
    examples: [
      {
        url: 'https://shop.example/webhooks',
        signingSecret: 'whsec_tbUnIEU4XQHGdkn6IIpsDwWbPgtXFQEG',
        livemode: false,
        enabledEvents: ['payment.completed', 'payment.canceled'],
        status: 'enabled',
        failingSince: null,
        consecutiveFailures: 0,
        lastError: null,
        disabledAt: null,
      },
    ],
  },
};

/** One of the merchant's several endpoints (`/v1/webhook-endpoints`). */
export const WEBHOOK_ENDPOINT_RESOURCE_SCHEMAS: Record<string, Schema> = {
  WebhookEndpointResource: {
    ...object({
      id: id('we'),
      url: { type: 'string', format: 'uri' },
      description: nullable(text),
      enabledEvents: { type: 'array', items: { enum: [...EVENT_TYPES] } },
      signingSecret: { type: 'string', pattern: '^whsec_' },
      livemode: { type: 'boolean' },
      status: { enum: ['enabled', 'disabled'] },
      failingSince: nullable(instant),
      consecutiveFailures: { type: 'integer', minimum: 0 },
      lastError: nullable({ type: 'string' }),
      disabledAt: nullable(instant),
      createdAt: instant,
    }),
    examples: [
      {
        id: 'we_UWnEcTgWNQ3mtbPhohSdjya0',
        url: 'https://accounting.shop.example/webhooks',
        description: 'accounting',
        enabledEvents: ['payment.completed', 'refund.succeeded'],
        signingSecret: 'whsec_sc5NMoBSCG6ZFKNeDH8asjgL4FP4WqNP',
        livemode: false,
        status: 'enabled',
        failingSince: null,
        consecutiveFailures: 0,
        lastError: null,
        disabledAt: null,
        createdAt: '2026-11-26T07:47:17.398Z',
      },
    ],
  },
};
