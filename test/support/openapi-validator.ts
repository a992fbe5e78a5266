import type { NextFunction, Request, Response } from 'express';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** docs/openapi.json as committed: the reference merchants read. */
export const COMMITTED_OPENAPI = join(__dirname, '../../docs/openapi.json');
/** docs/openapi-admin.json: the operator API's. */
export const COMMITTED_ADMIN_OPENAPI = join(__dirname, '../../docs/openapi-admin.json');

/**
 * Checks response bodies against a component of the committed OpenAPI document (JSON Schema
 * 2020-12, as OpenAPI 3.1 uses), so the reference cannot drift from what the API answers.
 */
export function openApiValidator(document: { components: { schemas: Record<string, unknown> } } = loadCommitted()) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  return (component: string, body: unknown): string[] => {
    const validate = ajv.getSchema(`openapi#/components/schemas/${component}`);
    if (!validate) return [`no component ${component}`];
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
}

function loadCommitted() {
  return JSON.parse(readFileSync(COMMITTED_OPENAPI, 'utf8')) as { components: { schemas: Record<string, unknown> } };
}

type Responses = Record<string, { content?: { 'application/json'?: { schema?: object } } }>;
type Paths = Record<string, Record<string, { responses: Responses }>>;

/**
 * An Express middleware for the test harness: every answer of an operation the document describes
 * is checked against it (a status it does not list, or a body its schema refuses) and what is wrong
 * is added to `violations`; the harness fails the spec that caused one when it stops.
 */
export function responseConformance(
  document: { paths: Paths; components: { schemas: Record<string, unknown> } },
  violations: string[],
) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: document.components });
  // Literal segments before parameters: POST /v1/events/recover is not POST /v1/events/{id}.
  const routes = Object.entries(document.paths)
    .map(([path, operations]) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      operations,
    }))
    .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (key: string, schema: object) => {
    if (!compiled.has(key)) compiled.set(key, ajv.compile(withBase(schema)));
    return compiled.get(key)!;
  };
  return (request: Request, response: Response, next: NextFunction): void => {
    const method = request.method.toLowerCase();
    const route = routes.find((candidate) => candidate.pattern.test(request.path) && candidate.operations[method]);
    const operation = route?.operations[method];
    // Only operations whose responses are described (every error included) are held to them.
    if (!route || !operation?.responses['401']) return next();
    const send = response.send.bind(response);
    response.send = (body?: unknown) => {
      const status = String(response.statusCode);
      const documented = operation.responses[status];
      const where = `${request.method} ${route.path} → ${status}`;
      if (!documented) violations.push(`${where}: status not in the document`);
      const schema = documented?.content?.['application/json']?.schema;
      if (schema && typeof body === 'string' && body.length > 0) {
        const validate = validatorFor(where, schema);
        if (!validate(JSON.parse(body))) {
          violations.push(
            `${where}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`,
          );
        }
      }
      return send(body);
    };
    next();
  };
}

/** A response schema's `$ref`s point into the document added as `openapi`. */
function withBase(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object;
}
