// The merchant API's types generated from docs/openapi.json, so the SDK's own types can be checked
// against the reference at compile time (libs/sdk/src/openapi-types.check.ts).
//   node scripts/openapi-types.mjs          rewrites libs/sdk/src/openapi.generated.ts
//   node scripts/openapi-types.mjs --check  exits 1 when that file is not what the document gives
import { compile } from 'json-schema-to-typescript';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const documentPath = join(root, 'docs/openapi.json');
const outputPath = join(root, 'libs/sdk/src/openapi.generated.ts');

const document = JSON.parse(readFileSync(documentPath, 'utf8'));
// OpenAPI's component refs become JSON Schema $defs; recorded examples are documentation, not types.
const schemas = JSON.parse(JSON.stringify(document.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'));
for (const schema of Object.values(schemas)) delete schema.examples;
const names = Object.keys(schemas);
const rootSchema = {
  title: 'OpenApiSchemas',
  description: 'Every component schema of docs/openapi.json by name.',
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, { $ref: `#/$defs/${name}` }])),
  required: names,
  additionalProperties: false,
  $defs: schemas,
};
const prettier = JSON.parse(readFileSync(join(root, '.prettierrc.json'), 'utf8'));
const generated = await compile(rootSchema, 'OpenApiSchemas', {
  bannerComment: '/* Generated from docs/openapi.json by scripts/openapi-types.mjs (npm run openapi): do not edit. */',
  additionalProperties: false,
  style: prettier,
});

if (process.argv.includes('--check')) {
  if (readFileSync(outputPath, 'utf8') !== generated) {
    console.error(`${outputPath} differs from docs/openapi.json: run npm run openapi`);
    process.exit(1);
  }
} else {
  writeFileSync(outputPath, generated);
}
