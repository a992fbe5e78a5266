import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headingSlug } from '../../apps/payments-api/src/surfaces/docs/markdown';
import { PaymentsApiHarness } from '../support/payments-api.harness';

const GUIDE = readFileSync(join(__dirname, '../../docs/merchant-guide.md'), 'utf8');

/** Issue 24: `/` leads a person to the reference and the console, and the guide ships with payhook. */
describe('GET / and the merchant guide', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());

  it('answers a browser at / with a page linking the reference, the guide and the console', async () => {
    const page = await api.http().get('/').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'nonce-/);
    for (const href of ['/docs', '/docs/guide', '/console']) expect(page.text).toContain(`href="${href}"`);
    expect(page.text).not.toContain('<script');
    // curl's */* is a person at a terminal too.
    await api.http().get('/').set('Accept', '*/*').expect(200);
  });

  it('keeps the JSON 404 for a client that asks for JSON', async () => {
    const answer = await api.http().get('/').set('Accept', 'application/json').expect(404);
    expect(answer.body.error).toMatchObject({ code: 'resource_not_found', message: 'No such route: GET /' });
  });

  it('serves docs/merchant-guide.md at /docs/guide as a page, linked from /docs, every link landing', async () => {
    const guide = await api.http().get('/docs/guide').expect(200);
    expect(guide.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(guide.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'nonce-/);
    expect(guide.text).not.toMatch(/<script|style="/);
    expect(guide.text).toContain('<h1 id="payhook-merchant-guide">payhook merchant guide</h1>');
    expect(guide.text).toContain('<h2 id="errors">Errors</h2>');
    const ids = new Set([...guide.text.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]));
    const hrefs = [...guide.text.matchAll(/ href="([^"]+)"/g)].map((match) => match[1]);
    for (const href of hrefs.filter((href) => href.startsWith('#'))) expect(ids).toContain(href.slice(1));
    for (const href of hrefs.filter((href) => href.startsWith('/'))) await api.http().get(href).expect(200);
    // A link to a file of the repository would be a 404 on the served page.
    expect(hrefs.filter((href) => !/^(#|\/|https:\/\/)/.test(href))).toEqual([]);
    const docs = await api.http().get('/docs').expect(200);
    expect(docs.text).toContain('<a href="/docs/guide">merchant guide</a>');
  });

  it('lists every section of the guide in its Contents line, in order', () => {
    const sections = [...GUIDE.matchAll(/^## (.+)$/gm)].map((match) => `#${headingSlug(match[1])}`);
    const contents = GUIDE.slice(GUIDE.indexOf('Contents:'), GUIDE.indexOf('\n\n', GUIDE.indexOf('Contents:')));
    expect([...contents.matchAll(/\]\((#[^)]+)\)/g)].map((match) => match[1])).toEqual(sections);
  });

  it("lists in the guide's error table every code the merchant API documents", async () => {
    const document = (await api.http().get('/v1/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>>;
    };
    const documented = new Set(
      Object.values(document.paths)
        .flatMap((methods) => Object.values(methods))
        .flatMap((operation) => Object.values(operation.responses))
        .flatMap((response) => /^error\.code: (.+)$/.exec(response.description ?? '')?.[1].split(', ') ?? []),
    );
    const errors = GUIDE.slice(GUIDE.indexOf('## Errors'), GUIDE.indexOf('\n## ', GUIDE.indexOf('## Errors') + 1));
    const inTable = [...errors.matchAll(/^\| \d{3} +\| `([a-z_]+)`/gm)].map((match) => match[1]);
    expect(documented.size).toBeGreaterThan(10);
    expect(inTable).toEqual(expect.arrayContaining([...documented]));
  });

  it("shows on /docs each success by its status' name, each request body's fields and descriptions as text", async () => {
    const docs = (await api.http().get('/docs').expect(200)).text;
    expect(docs).toContain('<strong>201</strong> Created');
    expect(docs).not.toContain('<strong>201</strong> OK');
    // Markdown in the document's descriptions is rendered, not shown as backticks.
    expect(docs).not.toContain('`');
    const create = docs.slice(
      docs.indexOf('id="post-v1-payments"'),
      docs.indexOf('</section>', docs.indexOf('id="post-v1-payments"')),
    );
    expect(create).toContain('aria-label="Request body of POST /v1/payments"');
    for (const field of ['orderId', 'amount', 'returnUrl']) expect(create).toContain(`<code>${field}</code>`);
  });

  it('cites no file outside the repository in /docs, the OpenAPI document or the guide', async () => {
    const docs = await api.http().get('/docs').expect(200);
    const openapi = await api.http().get('/v1/openapi.json').expect(200);
    for (const text of [docs.text, JSON.stringify(openapi.body), GUIDE]) {
      expect(text).not.toMatch(/DESIGN\.md|shared\/|\.\.\//);
    }
  });
});
