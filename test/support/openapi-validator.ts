import Ajv2020 from 'ajv/dist/2020';
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
