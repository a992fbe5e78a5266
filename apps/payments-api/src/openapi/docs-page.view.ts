import type { OpenAPIObject } from '@nestjs/swagger';
import { html, SafeHtml } from '../html/html';
import { htmlPage } from '../html/html-page';

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

const STYLE = new SafeHtml(`
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;background:#f3f4f6;color:#111827}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.25rem;margin:2rem 0 .75rem}
h3{font-size:1.0625rem;margin:0 0 .5rem;overflow-wrap:anywhere}
section{background:#fff;border-radius:10px;padding:1rem;margin:0 0 1rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.method{display:inline-block;min-width:4rem;font-weight:700;color:#1e3a8a}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9375em}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;vertical-align:top;padding:.375rem .5rem;border-bottom:1px solid #e5e7eb;overflow-wrap:anywhere}
th{color:#374151;font-weight:600}
.muted{color:#4b5563}
a{color:#1d4ed8}
.scroll{overflow-x:auto}
h4{font-size:1rem;margin:1rem 0 .25rem}
pre{background:#f9fafb;border:1px solid #e5e7eb;border-radius:6px;padding:.5rem .75rem;margin:0}
`);

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
    <p>${document.info.description ?? ''}</p>
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
              <span class="muted">${operation.summary ?? ''}</span>
            </li>`,
        )}
      </ul>
    </nav>
    <h2>Operations</h2>
    ${operations.map(({ path, method, operation }) => operationSection(path, method, operation))}
    <h2>Schemas</h2>
    ${Object.entries(schemas).map(([name, schema]) => schemaSection(name, schema))}`;
  return htmlPage({ title: `${document.info.title} · payhook`, nonce, style: STYLE, body, indexable: true });
}

function operationSection(path: string, method: string, operation: Operation): SafeHtml {
  const id = anchor(method, path);
  const requestSchema = operation.requestBody?.content?.['application/json']?.schema;
  const parameters = operation.parameters ?? [];
  return html`<section id="${id}" aria-labelledby="${id}-title">
    <h3 id="${id}-title"><span class="method">${method.toUpperCase()}</span> <code>${path}</code></h3>
    <p>${operation.summary ?? ''}</p>
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
              html`${describe(parameter.schema)} ${parameter.description ?? ''}`,
            ]),
          )
    }
    ${requestSchema ? html`<p>Request body: ${describe(requestSchema)}</p>` : null}
    <ul>
      ${Object.entries(operation.responses).map(
        ([status, response]) =>
          html`<li>
            <strong>${status}</strong> ${response.description ?? ''}
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
    ${schema.description ? html`<p>${schema.description}</p>` : null}
    ${
      properties.length === 0
        ? html`<p>${describe(schema, false)}</p>`
        : scrollingTable(
            `Fields of ${name}`,
            ['field', 'required', 'schema'],
            properties.map(([property, value]) => [
              html`<code>${property}</code>`,
              schema.required?.includes(property) ? 'yes' : 'no',
              html`${describe(value)} ${value.description ?? ''}`,
            ]),
          )
    }
    ${schema.examples?.length ? example(name, schema.examples[0]) : null}
  </section>`;
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
