import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { PAYHOOK_VERSION } from '@payhook/contracts';
import { COMPONENT_SCHEMAS } from './components';

/**
 * The merchant API's OpenAPI 3.1 document, generated from the controllers and DTOs: every `/v1`
 * route (the operator, console and payment-screen routes are not part of it). Deterministic, so
 * docs/openapi.json can be compared with it.
 */
export function merchantDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('payhook merchant API')
    .setDescription(
      'Payments in whole KRW with idempotent creation and signed webhooks. Errors always have the ' +
        'shape of the Error component; every response carries a Request-Id header.',
    )
    .setVersion(PAYHOOK_VERSION)
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'An API key: svc_test_… for test mode, svc_live_… for live.' },
      'apiKey',
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/v1/') && path !== '/v1/openapi.json')
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const schemas: Record<string, unknown> = { ...document.components?.schemas, ...COMPONENT_SCHEMAS };
  document.components = { ...document.components, schemas: reachable(document.paths, schemas) };
  return document;
}

/** Only the schemas the kept paths use, directly or through other schemas (the operator's DTOs go). */
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
