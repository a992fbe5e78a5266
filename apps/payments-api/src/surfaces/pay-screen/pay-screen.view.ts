import type { PaymentStatus } from '@payhook/contracts';
import { formatDepositCode } from '../../money/deposits';
import { formatTimeLeft, formatWon, returnUrlWith } from './format';
import { SafeHtml, html } from '../../platform/html/html';
import { htmlPage } from '../../platform/html/html-page';

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
  /** Given on the first view of a pending payment; null once it has finished without one. */
  depositCode: string | null;
  /** Value of the vouchers already applied. */
  vouchersApplied: number;
}

/** The collection account a payer transfers to (configuration). */
export interface BankAccount {
  bankName: string;
  accountNumber: string;
  holder: string;
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
button.secondary,.button.secondary{background:#e5e7eb;color:#111827}
button.danger{background:#b91c1c}
button:focus-visible,.button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.note{color:#374151;font-size:.9375rem}
h2{font-size:1.0625rem;margin:1.5rem 0 .75rem}
.code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:1.0625rem;letter-spacing:.04em;white-space:nowrap}
label{display:block;font-weight:600;margin:0 0 .25rem}
textarea{display:block;width:100%;min-height:6rem;padding:.5rem;border:1px solid #6b7280;border-radius:8px;font:inherit;font-family:ui-monospace,Menlo,Consolas,monospace;margin:0 0 .75rem}
textarea:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
a{color:#1d4ed8}
.alert{border-left:4px solid #b91c1c;background:#fef2f2;padding:.5rem .75rem;margin:0 0 1rem}
.ok{border-left-color:#15803d;background:#f0fdf4}
ul.pins{padding-left:1.25rem;margin:0 0 1rem}
`);

export function page(title: string, nonce: string, body: SafeHtml): string {
  return htmlPage({ title, nonce, style: STYLE, body });
}

/** What is left to pay once the applied vouchers are counted. */
export function outstandingOf(payment: PayScreenPayment): number {
  return Math.max(0, payment.amount - payment.vouchersApplied);
}

/** The ways to pay a pending payment: bank transfer with its deposit code, and gift vouchers. */
function payOptions(payment: PayScreenPayment, account: BankAccount): SafeHtml {
  const due = outstandingOf(payment);
  return html`${
    payment.vouchersApplied > 0
      ? html`<p class="note">
          Vouchers applied: <strong>${formatWon(payment.vouchersApplied)}</strong>. Left to pay:
          <strong>${formatWon(due)}</strong>.
        </p>`
      : null
  }
    <h2>Pay by bank transfer</h2>
    <dl>
      <dt>Bank</dt>
      <dd>${account.bankName}</dd>
      <dt>Account</dt>
      <dd class="code">${account.accountNumber}</dd>
      <dt>Holder</dt>
      <dd>${account.holder}</dd>
      <dt>Deposit code</dt>
      <dd class="code" id="deposit-code">${payment.depositCode ? formatDepositCode(payment.depositCode) : '—'}</dd>
      <dt>Amount</dt>
      <dd>${formatWon(due)}</dd>
    </dl>
    <p class="note">
      Put the deposit code in the transfer's memo (or as the depositor name) and send exactly ${formatWon(due)}.
      The payment completes as soon as the bank reports it; any other amount is checked by a person first.
    </p>
    <h2>Pay with gift vouchers</h2>
    <p><a href="/p/${payment.suffix}/vouchers">Enter culture or book gift voucher PINs</a></p>`;
}

export function renderPayScreen(
  payment: PayScreenPayment,
  csrfToken: string,
  nonce: string,
  account: BankAccount,
  now = new Date(),
): string {
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
      ? // No self-refresh (WCAG 2.2.1): the payer checks when they have paid, as often as they like.
        html`<p class="note" role="status">
            payhook is waiting for your payment of <strong>${formatWon(payment.amount)}</strong> to arrive. Once you
            have paid, check here: as soon as the payment is confirmed, you go back to ${payment.merchantName}.
          </p>
          <a class="button" href="/p/${payment.suffix}">Check for my payment</a>
          ${payOptions(payment, account)}`
      : // Test mode: the buttons first, then the real ways to pay, which test deposits and vouchers exercise.
        [
          ...PAY_SCREEN_ACTIONS.map(
            (action) =>
              html`<form method="post" action="/p/${payment.suffix}/${action}">
                <input type="hidden" name="csrf" value="${csrfToken}" />
                <button
                  type="submit"
                  class="${action === 'complete' ? '' : action === 'fail' ? 'danger' : 'secondary'}"
                >
                  ${ACTION_TEXT[action]}
                </button>
              </form>`,
          ),
          // A test deposit or voucher completes the payment out of sight, as a real one would.
          html`<p class="note">
              Paid with a test deposit or a test voucher instead? Check here: once the payment is complete, you
              go back to ${payment.merchantName}.
            </p>
            <a class="button secondary" href="/p/${payment.suffix}">Check for my payment</a>`,
          payOptions(payment, account),
        ];

  const body = html`<div class="card">
    ${payment.livemode ? null : html`<p class="banner" role="note">TEST MODE · no real money moves</p>`}
    <h1>Pay ${payment.merchantName}</h1>
    <p class="amount" aria-label="Amount">${formatWon(payment.amount)}</p>
    ${details} ${next}
  </div>`;
  return page(`${formatWon(payment.amount)} · ${payment.merchantName} · payhook`, nonce, body);
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
