import { html, SafeHtml } from '../../platform/html/html';
import { htmlPage } from '../../platform/html/html-page';

const STYLE = new SafeHtml(`
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;background:#f3f4f6;color:#111827}
main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
ul{padding-left:1.25rem}
li{margin:.5rem 0}
a{color:#1d4ed8}
.muted{color:#4b5563}
`);

/**
 * GET / for a person: where to go from here. A redirect would choose for them, but the two who land
 * here want different things: a developer the reference, merchant staff the console.
 */
export function renderHomePage(nonce: string, guideServed: boolean): string {
  const body = html`<h1>payhook</h1>
    <p>payhook takes payments for merchant servers: one idempotent API call creates a payment, and a signed
      webhook says when it completed.</p>
    <ul>
      <li><a href="/docs">API reference</a> <span class="muted">for developers: every operation and shape</span></li>
      ${
        guideServed
          ? html`<li><a href="/docs/guide">Merchant guide</a>
            <span class="muted">webhooks and their verification, idempotency, errors, going live</span></li>`
          : null
      }
      <li><a href="/console">Merchant console</a> <span class="muted">for merchant staff: payments, webhooks, settlements</span></li>
    </ul>
    <p class="muted">Machines: <a href="/v1/openapi.json">/v1/openapi.json</a> and <a href="/health">/health</a>.</p>`;
  return htmlPage({ title: 'payhook', nonce, style: STYLE, body, indexable: true });
}
