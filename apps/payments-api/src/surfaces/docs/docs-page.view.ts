import type { OpenAPIObject } from '@nestjs/swagger';
import { html, type SafeHtml } from '../../platform/html/html';
import { htmlPage } from '../../platform/html/html-page';
import { DOCS_STYLE } from './docs-style';
import { renderInlineMarkdown } from './markdown';

type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  description?: string;
  items?: Schema;
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  examples?: unknown[];
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Operation = {
  summary?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};

/**
 * GET /docs: the merchant API's OpenAPI document as a page, rendered on the server from the same
 * document /v1/openapi.json serves. No script and no other host: the page's CSP stays the strict
 * one of every payhook page (a nonce'd stylesheet, nothing else).
 */
export function renderDocsPage(document: OpenAPIObject, nonce: string, guideServed: boolean): string {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, Operation>).map(([method, operation]) => ({ path, method, operation })),
  );
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const body = html`<h1>${document.info.title} <span class="muted">${document.info.version}</span></h1>
    <p>${renderInlineMarkdown(document.info.description ?? '')}</p>
    <p>
      Authenticate with <code>Authorization: Bearer &lt;API key&gt;</code>. The machine-readable document:
      <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI ${document.openapi}).
    </p>
    <p>
      How to verify a webhook, what is retried and when, idempotency, every error code and the integration
      test that opens live mode:
      ${
        guideServed
          ? html`the <a href="/docs/guide">merchant guide</a> (<code>docs/merchant-guide.md</code> in the repository).`
          : html`the merchant guide, <code>docs/merchant-guide.md</code> in the payhook repository.`
      }
    </p>
    <nav aria-label="Operations">
      <ul>
        ${operations.map(
          ({ path, method, operation }) =>
            html`<li>
              <a href="#${anchor(method, path)}"><span class="method">${method.toUpperCase()}</span> ${path}</a>
              <span class="muted">${renderInlineMarkdown(operation.summary ?? '')}</span>
            </li>`,
        )}
      </ul>
    </nav>
    <h2>Operations</h2>
    ${operations.map(({ path, method, operation }) => operationSection(path, method, operation, schemas))}
    <h2>Schemas</h2>
    ${Object.entries(schemas).map(([name, schema]) => schemaSection(name, schema))}`;
  return htmlPage({ title: `${document.info.title} · payhook`, nonce, style: DOCS_STYLE, body, indexable: true });
}

function operationSection(
  path: string,
  method: string,
  operation: Operation,
  schemas: Record<string, Schema>,
): SafeHtml {
  const id = anchor(method, path);
  const requestSchema = operation.requestBody?.content?.['application/json']?.schema;
  const parameters = operation.parameters ?? [];
  return html`<section id="${id}" aria-labelledby="${id}-title">
    <h3 id="${id}-title"><span class="method">${method.toUpperCase()}</span> <code>${path}</code></h3>
    <p>${renderInlineMarkdown(operation.summary ?? '')}</p>
    ${
      parameters.length === 0
        ? null
        : scrollingTable(
            `Parameters of ${method.toUpperCase()} ${path}`,
            ['name', 'in', 'required', 'schema'],
            parameters.map((parameter) => [
              html`<code>${parameter.name}</code>`,
              parameter.in,
              parameter.required ? 'yes' : 'no',
              html`${describe(parameter.schema)} ${renderInlineMarkdown(parameter.description ?? '')}`,
            ]),
          )
    }
    ${requestSchema ? requestBody(`${method.toUpperCase()} ${path}`, requestSchema, schemas) : null}
    <ul>
      ${Object.entries(operation.responses).map(
        ([status, response]) =>
          html`<li>
            <strong>${status}</strong> ${renderInlineMarkdown(response.description ?? '')}
            ${describe(response.content?.['application/json']?.schema)}
          </li>`,
      )}
    </ul>
  </section>`;
}

function schemaSection(name: string, schema: Schema): SafeHtml {
  const properties = Object.entries(schema.properties ?? {});
  return html`<section id="schema-${name}" aria-labelledby="schema-${name}-title">
    <h3 id="schema-${name}-title">${name}</h3>
    ${schema.description ? html`<p>${renderInlineMarkdown(schema.description)}</p>` : null}
    ${properties.length === 0 ? html`<p>${describe(schema, false)}</p>` : fieldsTable(`Fields of ${name}`, schema)}
    ${schema.examples?.length ? example(name, schema.examples[0]) : null}
  </section>`;
}

/** The request body's fields where the operation is described, not only the name of its schema. */
function requestBody(operation: string, schema: Schema, schemas: Record<string, Schema>): SafeHtml {
  const resolved = schema.$ref ? schemas[schema.$ref.split('/').pop() ?? ''] : schema;
  if (!resolved?.properties) return html`<p>Request body: ${describe(schema)}</p>`;
  return html`<h4>Request body</h4>
    ${resolved.description ? html`<p>${renderInlineMarkdown(resolved.description)}</p>` : null}
    ${fieldsTable(`Request body of ${operation}`, resolved)}`;
}

function fieldsTable(label: string, schema: Schema): SafeHtml {
  return scrollingTable(
    label,
    ['field', 'required', 'schema'],
    Object.entries(schema.properties ?? {}).map(([property, value]) => [
      html`<code>${property}</code>`,
      schema.required?.includes(property) ? 'yes' : 'no',
      html`${describe(value)} ${renderInlineMarkdown(value.description ?? '')}`,
    ]),
  );
}

/** A recorded answer, as JSON; it scrolls sideways on a narrow screen like the tables. */
function example(name: string, value: unknown): SafeHtml {
  return html`<h4>Example</h4>
    <pre class="scroll" tabindex="0" role="region" aria-label="Example of ${name}"><code>${JSON.stringify(value, null, 2)}</code></pre>`;
}

/** A table that scrolls sideways on a narrow screen: a named region the keyboard can reach. */
function scrollingTable(label: string, headings: string[], rows: (SafeHtml | string)[][]): SafeHtml {
  return html`<div class="scroll" tabindex="0" role="region" aria-label="${label}">
    <table>
      <thead>
        <tr>
          ${headings.map((heading) => html`<th scope="col">${heading}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map((cells) => html`<tr>${cells.map((cell) => html`<td>${cell}</td>`)}</tr>`)}
      </tbody>
    </table>
  </div>`;
}

/** A schema in a few words, with a link for a reference. */
function describe(schema: Schema | undefined, linkSelf = true): SafeHtml | string {
  if (!schema) return '';
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return linkSelf ? html`<a href="#schema-${name}">${name}</a>` : name;
  }
  if (schema.oneOf) return html`one of ${join(schema.oneOf.map((one) => describe(one)))}`;
  if (schema.allOf) return html`all of ${join(schema.allOf.map((one) => describe(one)))}`;
  if (schema.const !== undefined) return html`<code>${JSON.stringify(schema.const)}</code>`;
  if (schema.enum) return html`one of <code>${schema.enum.map((value) => JSON.stringify(value)).join(', ')}</code>`;
  if (schema.type === 'array') return html`array of ${describe(schema.items)}`;
  if (schema.properties) {
    const fields = Object.entries(schema.properties).map(
      ([name, value]) => html`<code>${name}</code>: ${describe(value)}`,
    );
    return html`{ ${join(fields)} }`;
  }
  const limits = [
    schema.format,
    schema.pattern && `pattern ${schema.pattern}`,
    schema.minimum !== undefined && `≥ ${schema.minimum}`,
    schema.maximum !== undefined && `≤ ${schema.maximum}`,
    schema.maxLength !== undefined && `at most ${schema.maxLength} characters`,
  ].filter(Boolean);
  return `${schema.type ?? 'object'}${limits.length ? ` (${limits.join(', ')})` : ''}`;
}

function join(parts: (SafeHtml | string)[]): SafeHtml {
  return html`${parts.map((part, index) => html`${index > 0 ? ', ' : ''}${part}`)}`;
}

function anchor(method: string, path: string): string {
  return `${method}-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}
