import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { PAYHOOK_VERSION } from '@payhook/contracts';
import { MERCHANT_SCHEMAS } from '../../accounts/merchants';
import { CASH_RECEIPT_SCHEMAS } from '../../money/cash-receipts';
import { DEPOSIT_SCHEMAS } from '../../money/deposits';
import { HOLIDAY_SCHEMAS } from '../../money/holidays';
import { PAYMENT_SCHEMAS } from '../../money/payments';
import { REFUND_SCHEMAS } from '../../money/refunds';
import { REVIEW_SCHEMAS } from '../../money/reviews';
import { SETTLEMENT_SCHEMAS } from '../../money/settlements';
import { NEW_VOUCHER_SCHEMAS, VOUCHER_SCHEMAS } from '../../money/vouchers';
import { ERROR_SCHEMAS } from '../../platform/openapi/error.schema';
import { WEBHOOK_ENDPOINT_RESOURCE_SCHEMAS, WEBHOOK_ENDPOINT_SCHEMAS } from '../../webhooks/endpoints';
import { EVENT_SCHEMAS } from '../../webhooks/events';
import { INTEGRATION_TEST_SCHEMAS } from '../../webhooks/integration-tests';
import { LISTEN_SESSION_SCHEMAS } from '../../webhooks/listen-sessions';

/**
 * The response shapes, each from its feature's door, after the request shapes Nest builds from the
 * DTOs. A document lists them in this order, and docs/openapi.json as served: the vouchers' and the
 * webhook endpoints' shapes come in two parts each, where the committed documents have them.
 */
const RESPONSE_SCHEMAS = {
  ...ERROR_SCHEMAS,
  ...PAYMENT_SCHEMAS,
  ...REFUND_SCHEMAS,
  ...CASH_RECEIPT_SCHEMAS,
  ...EVENT_SCHEMAS,
  ...SETTLEMENT_SCHEMAS,
  ...DEPOSIT_SCHEMAS,
  ...VOUCHER_SCHEMAS,
  ...INTEGRATION_TEST_SCHEMAS,
  ...MERCHANT_SCHEMAS,
  ...NEW_VOUCHER_SCHEMAS,
  ...REVIEW_SCHEMAS,
  ...HOLIDAY_SCHEMAS,
  ...WEBHOOK_ENDPOINT_SCHEMAS,
  ...LISTEN_SESSION_SCHEMAS,
  ...WEBHOOK_ENDPOINT_RESOURCE_SCHEMAS,
};

/** One of the two documents: the merchant API under /v1, the operator API under /admin/v1. */
interface DocumentKind {
  title: string;
  description: string;
  prefix: string;
  scheme: { name: string; description: string };
}

const MERCHANT: DocumentKind = {
  title: 'payhook merchant API',
  description:
    'Payments in whole KRW with idempotent creation and signed webhooks. Errors always have the shape ' +
    'of the Error component; every response carries a Request-Id header. Webhook verification, retries, ' +
    'idempotency, every error code and the integration test: the merchant guide, /docs/guide ' +
    '(docs/merchant-guide.md in the repository).',
  prefix: '/v1/',
  scheme: { name: 'apiKey', description: 'An API key: svc_test_… for test mode, svc_live_… for live.' },
};

const ADMIN: DocumentKind = {
  title: 'payhook operator API',
  description:
    'Onboarding, keys, deposits, vouchers, the refund and cash receipt queues, the review queue and ' +
    'non-banking days. Behind ADMIN_TOKEN; ' +
    'errors have the shape of the Error component.',
  prefix: '/admin/v1/',
  scheme: { name: 'adminToken', description: 'The operator token (ADMIN_TOKEN).' },
};

/**
 * The OpenAPI 3.1 documents, generated from the controllers and DTOs. Deterministic, so
 * docs/openapi.json and docs/openapi-admin.json can be compared with them.
 */
export function merchantDocument(app: INestApplication): OpenAPIObject {
  return apiDocument(app, MERCHANT);
}

export function adminDocument(app: INestApplication): OpenAPIObject {
  const document = apiDocument(app, ADMIN);
  // Every operator route needs the token; the routes carry no per-route decorators for it.
  document.security = [{ [ADMIN.scheme.name]: [] }];
  return document;
}

function apiDocument(app: INestApplication, kind: DocumentKind): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle(kind.title)
    .setDescription(kind.description)
    .setVersion(PAYHOOK_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: kind.scheme.description }, kind.scheme.name)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([path]) => path.startsWith(kind.prefix) && !path.endsWith('/openapi.json'))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const schemas: Record<string, unknown> = { ...document.components?.schemas, ...RESPONSE_SCHEMAS };
  document.components = { ...document.components, schemas: reachable(document.paths, schemas) };
  return document;
}

/** Only the schemas the kept paths use, directly or through other schemas. */
function reachable(paths: unknown, schemas: Record<string, unknown>): Record<string, never> {
  const kept = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      const name = key === '$ref' && typeof value === 'string' ? value.split('/').pop() : undefined;
      if (name && !kept.has(name)) {
        kept.add(name);
        visit(schemas[name]);
      } else visit(value);
    }
  };
  visit(paths);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name))) as Record<string, never>;
}
