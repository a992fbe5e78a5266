import { html } from '../../platform/html/html';
import { htmlPage } from '../../platform/html/html-page';
import { DOCS_STYLE } from './docs-style';
import { renderMarkdown } from './markdown';

/**
 * GET /docs/guide: docs/merchant-guide.md as a page, rendered on the server like /docs (no script,
 * the same strict CSP), its Contents links landing on the headings they name.
 */
export function renderGuidePage(guide: string, nonce: string): string {
  const body = html`<nav aria-label="Documentation"><a href="/docs">API reference</a></nav>
    ${renderMarkdown(guide)}`;
  return htmlPage({ title: 'Merchant guide · payhook', nonce, style: DOCS_STYLE, body, indexable: true });
}
