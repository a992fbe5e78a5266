import type { PaymentStatus } from '@payhook/contracts';
import { formatTimeLeft, formatWon, returnUrlWith } from './format';
import { SafeHtml, html } from '../html/html';

export interface PayScreenPayment {
  id: string;
  merchantId: string;
  suffix: string;
  merchantName: string;
  orderId: string;
  amount: number;
  status: PaymentStatus;
  livemode: boolean;
  expiresAt: Date;
  returnUrl: string;
}

export const PAY_SCREEN_ACTIONS = ['complete', 'fail', 'cancel'] as const;
export type PayScreenAction = (typeof PAY_SCREEN_ACTIONS)[number];

const STATUS_TEXT: Record<PaymentStatus, string> = {
  pending: 'Waiting for payment',
  completed: 'Paid',
  failed: 'Payment failed',
  canceled: 'Canceled',
  expired: 'Expired',
};

const ACTION_TEXT: Record<PayScreenAction, string> = {
  complete: 'Complete payment',
  fail: 'Fail payment',
  cancel: 'Cancel',
};

/** Live pages waiting for funds look again this often (no script needed). */
export const LIVE_REFRESH_SECONDS = 5;

const STYLE = new SafeHtml(`
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;background:#f3f4f6;color:#111827}
main{max-width:28rem;margin:0 auto;padding:1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.banner{background:#92400e;color:#fff;font-weight:700;text-align:center;padding:.5rem;border-radius:8px;margin:0 0 1rem;letter-spacing:.05em}
h1{font-size:1.25rem;margin:0 0 1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem;margin:0 0 1.25rem}
dt{color:#4b5563}
dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.amount{font-size:clamp(1.5rem,8vw,2rem);font-weight:700;margin:0 0 1rem;white-space:nowrap}
.status{font-size:1.125rem;font-weight:700;margin:0 0 1rem}
form{margin:0 0 .75rem}
button,.button{display:block;width:100%;padding:.875rem 1rem;border:0;border-radius:8px;font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer;background:#1d4ed8;color:#fff}
button.secondary{background:#e5e7eb;color:#111827}
button.danger{background:#b91c1c}
button:focus-visible,.button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.note{color:#374151;font-size:.9375rem}
`);

function page(title: string, nonce: string, body: SafeHtml, refreshSeconds?: number): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        ${refreshSeconds ? html`<meta http-equiv="refresh" content="${refreshSeconds}" />` : null}
        <title>${title}</title>
        <style nonce="${nonce}">
          ${STYLE}
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.value;
}

export function renderPayScreen(payment: PayScreenPayment, csrfToken: string, nonce: string, now = new Date()): string {
  const finished = payment.status !== 'pending';
  const details = html`<dl>
    <dt>Merchant</dt>
    <dd>${payment.merchantName}</dd>
    <dt>Order</dt>
    <dd>${payment.orderId}</dd>
    <dt>Status</dt>
    <dd id="status">${STATUS_TEXT[payment.status]}</dd>
    ${
      finished
        ? null
        : html`<dt>Time left</dt>
            <dd>
              <time datetime="${payment.expiresAt.toISOString()}"
                >${formatTimeLeft(payment.expiresAt.getTime() - now.getTime())}</time
              >
            </dd>`
    }
  </dl>`;

  const next = finished
    ? html`<p class="status" role="status">${STATUS_TEXT[payment.status]}</p>
        <a class="button" href="${returnUrlWith(payment.returnUrl, payment)}">Return to ${payment.merchantName}</a>`
    : payment.livemode
      ? html`<p class="note" role="status">
          payhook is waiting for your payment of <strong>${formatWon(payment.amount)}</strong> to arrive. This page
          checks again every ${LIVE_REFRESH_SECONDS} seconds and takes you back to ${payment.merchantName} once the
          payment is confirmed.
        </p>`
      : PAY_SCREEN_ACTIONS.map(
          (action) =>
            html`<form method="post" action="/p/${payment.suffix}/${action}">
              <input type="hidden" name="csrf" value="${csrfToken}" />
              <button type="submit" class="${action === 'complete' ? '' : action === 'fail' ? 'danger' : 'secondary'}">
                ${ACTION_TEXT[action]}
              </button>
            </form>`,
        );

  const body = html`<div class="card">
    ${payment.livemode ? null : html`<p class="banner" role="note">TEST MODE · no real money moves</p>`}
    <h1>Pay ${payment.merchantName}</h1>
    <p class="amount" aria-label="Amount">${formatWon(payment.amount)}</p>
    ${details} ${next}
  </div>`;
  const refresh = !finished && payment.livemode ? LIVE_REFRESH_SECONDS : undefined;
  return page(`${formatWon(payment.amount)} · ${payment.merchantName} · payhook`, nonce, body, refresh);
}

export function renderNotFound(nonce: string): string {
  return page(
    'Payment not found · payhook',
    nonce,
    html`<div class="card">
      <h1>Payment not found</h1>
      <p class="note">This payment link is not valid. Go back to the shop and start the payment again.</p>
    </div>`,
  );
}

export function renderForbidden(nonce: string, message: string): string {
  return page(
    'Not allowed · payhook',
    nonce,
    html`<div class="card">
      <h1>Not allowed</h1>
      <p class="note">${message}</p>
    </div>`,
  );
}
