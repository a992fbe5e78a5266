import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it('serves docs/merchant-guide.md at /docs/guide, linked from /docs', async () => {
    const guide = await api.http().get('/docs/guide').expect(200);
    expect(guide.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(guide.text).toBe(GUIDE);
    const docs = await api.http().get('/docs').expect(200);
    expect(docs.text).toContain('<a href="/docs/guide">merchant guide</a>');
  });

  it('cites no file outside the repository in /docs, the OpenAPI document or the guide', async () => {
    const docs = await api.http().get('/docs').expect(200);
    const openapi = await api.http().get('/v1/openapi.json').expect(200);
    for (const text of [docs.text, JSON.stringify(openapi.body), GUIDE]) {
      expect(text).not.toMatch(/DESIGN\.md|shared\/|\.\.\//);
    }
  });
});
