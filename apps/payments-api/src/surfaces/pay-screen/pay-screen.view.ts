import type { CashReceiptType, PaymentStatus } from '@payhook/contracts';
import { formatDepositCode } from '../../money/deposits';
import type { CashReceiptFormError } from './cash-receipt-form';
import { cashReceiptSection } from './cash-receipt-form.view';
import { formatWon, returnUrlWith } from './format';
import { SafeHtml, html } from '../../platform/html/html';
import { htmlPage } from '../../platform/html/html-page';
import { LANGUAGE_NAMES, LOCALES, type Locale } from '../../platform/i18n/locale';
import { dayInZone, formatMonthDayInZone, wallClockInZone, zoneNameAt } from '../../platform/time/zoned-time';
import { payScreenT, type PayScreenKey, type PayScreenT } from './messages';

export interface PayScreenPayment {
  id: string;
  merchantId: string;
  suffix: string;
  merchantName: string;
  /** The merchant's zone: the deadline is shown on its wall clock. */
  merchantTimeZone: string;
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
  /** The cash receipt asked for before completion (the screen's form, or create's), the number masked. */
  cashReceiptAsked: { type: CashReceiptType; identityNumber: string } | null;
}

/** The collection account a payer transfers to (configuration). */
export interface BankAccount {
  bankName: string;
  accountNumber: string;
  holder: string;
}

export const PAY_SCREEN_ACTIONS = ['complete', 'fail', 'cancel'] as const;
export type PayScreenAction = (typeof PAY_SCREEN_ACTIONS)[number];

const STATUS_TEXT: Record<PaymentStatus, PayScreenKey> = {
  pending: 'pay.status.pending',
  completed: 'pay.status.completed',
  failed: 'pay.status.failed',
  canceled: 'pay.status.canceled',
  expired: 'pay.status.expired',
};

const ACTION_TEXT: Record<PayScreenAction, PayScreenKey> = {
  complete: 'pay.action.complete',
  fail: 'pay.action.fail',
  cancel: 'pay.action.cancel',
};

/** An example of a PIN as printed on a voucher (the voucher page shows the format). */
export const EXAMPLE_PIN = '1234-5678-9012-3456';

const STYLE = new SafeHtml(`
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR","Apple SD Gothic Neo","Malgun Gothic",sans-serif;background:#f3f4f6;color:#111827;word-break:keep-all;overflow-wrap:anywhere}
main{max-width:28rem;margin:0 auto;padding:.75rem}
.card{background:#fff;border-radius:12px;padding:1rem 1.125rem 1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.lang{text-align:right;margin:0 0 .25rem;font-size:.9375rem}
.lang a{display:inline-block;padding:.5rem .25rem;min-height:44px}
.banner{background:#92400e;color:#fff;font-weight:700;text-align:center;padding:.5rem;border-radius:8px;margin:0 0 1rem;letter-spacing:.05em}
h1{font-size:1.125rem;margin:0 0 .5rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem;margin:0 0 1rem}
dt{color:#4b5563}
dd{margin:0;font-weight:600}
dl.total{display:block;margin:0 0 1rem}
dl.total dt{font-size:.9375rem}
.amount{font-size:clamp(1.75rem,9vw,2.25rem);font-weight:700;line-height:1.2;white-space:nowrap}
.deadline{font-size:1.0625rem;color:#92400e}
.status{font-size:1.125rem;font-weight:700;margin:0 0 1rem}
form{margin:0 0 .75rem}
button,.button{display:block;width:100%;min-height:48px;padding:.875rem 1rem;border:0;border-radius:8px;font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer;background:#1d4ed8;color:#fff;margin:0 0 .75rem}
button.secondary,.button.secondary{background:#e5e7eb;color:#111827}
button.danger{background:#b91c1c}
button:focus-visible,.button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.note{color:#374151;font-size:.9375rem;margin:0 0 .75rem}
.instruction{background:#eff6ff;border-left:4px solid #1d4ed8;padding:.625rem .75rem;margin:0 0 .75rem;font-weight:600}
h2{font-size:1.0625rem;margin:1.25rem 0 .5rem}
section:first-of-type h2{margin-top:.5rem}
.code{font-family:ui-monospace,Menlo,Consolas,monospace;letter-spacing:.04em;white-space:nowrap}
.copy{display:inline-block;-webkit-user-select:all;user-select:all;cursor:text;font-size:1.1875rem;padding:.25rem .5rem;margin:-.25rem 0;border:1px dashed #6b7280;border-radius:6px;background:#f9fafb}
label{display:block;font-weight:600;margin:0 0 .25rem}
textarea{display:block;width:100%;min-height:6rem;padding:.5rem;border:1px solid #6b7280;border-radius:8px;font:inherit;font-family:ui-monospace,Menlo,Consolas,monospace;margin:0 0 .75rem}
textarea:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
a{color:#1d4ed8}
fieldset{border:0;padding:0;margin:0 0 .75rem;min-width:0}
legend{font-weight:600;padding:0;margin:0 0 .25rem}
.choice{display:flex;align-items:center;gap:.5rem}
.choice input{flex:none;width:1.25rem;height:1.25rem;margin:0}
.choice label{flex:1;font-weight:400;margin:0;padding:.625rem 0;min-height:44px}
input[type=text]{display:block;width:100%;min-height:48px;padding:.5rem .75rem;border:1px solid #6b7280;border-radius:8px;font:inherit;font-family:ui-monospace,Menlo,Consolas,monospace;margin:0 0 .75rem}
input[aria-invalid=true],textarea[aria-invalid=true]{border:2px solid #b91c1c}
textarea.prose{font-family:inherit}
.reason{white-space:pre-wrap;font-weight:400}
input:focus-visible,summary:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.field-error{color:#b91c1c;font-weight:600;margin:0 0 .25rem}
.alert dl{margin:.5rem 0 0}
.alert p{margin:0}
summary{min-height:44px;padding:.625rem 0;color:#1d4ed8;font-weight:600;text-decoration:underline;cursor:pointer}
details[open] summary{margin:0 0 .5rem}
.alert{border-left:4px solid #b91c1c;background:#fef2f2;padding:.5rem .75rem;margin:0 0 1rem}
.ok{border-left-color:#15803d;background:#f0fdf4}
ul.pins{padding-left:1.25rem;margin:0}
.details{border-top:1px solid #e5e7eb;margin-top:1.25rem}
.details dl{font-size:.9375rem;margin:0}
`);

export function page(t: PayScreenT, title: string, nonce: string, body: SafeHtml): string {
  return htmlPage({ title, lang: t.locale, nonce, style: STYLE, body });
}

/** Per language, the link to each other one as markup made once, around the page's path. */
const languageLinks = new Map(
  LOCALES.map((locale) => {
    const t = payScreenT(locale);
    const links = LOCALES.filter((other) => other !== locale).map((other) => ({
      query: new SafeHtml(`?lang=${other}`),
      rest: html`hreflang="${other}" lang="${other}">${LANGUAGE_NAMES[other]}</a>`,
    }));
    return [locale, { label: html`${t('page.language')}`, links }];
  }),
);

/** The link to the other language: `?lang=` on this page, which the controller keeps for the visit. */
export function languageSwitch(t: PayScreenT, path: string): SafeHtml {
  const { label, links } = languageLinks.get(t.locale)!;
  return html`<nav class="lang" aria-label="${label}">
    ${links.map((link) => html`<a href="${path}${link.query}" ${link.rest}`)}
  </nav>`;
}

export function testBanner(t: PayScreenT, payment: { livemode: boolean }): SafeHtml | null {
  return payment.livemode ? null : html`<p class="banner" role="note">${t.html('page.testBanner')}</p>`;
}

/** What is left to pay once the applied vouchers are counted. */
export function outstandingOf(payment: PayScreenPayment): number {
  return Math.max(0, payment.amount - payment.vouchersApplied);
}

/** Korean shops' clock: a deadline on it needs no zone name for their shoppers. */
const KOREAN_TIME = 'Asia/Seoul';

/**
 * "23:22까지" / "until 23:22" on the merchant's clock; with the day when it is not today there, and
 * the zone's name when the merchant is not on Korean time (a shopper may not be on its clock).
 */
function deadline(t: PayScreenT, payment: PayScreenPayment, now: Date): SafeHtml {
  const zone = payment.merchantTimeZone;
  const { day, clock } = wallClockInZone(payment.expiresAt, zone);
  const time = zone === KOREAN_TIME ? clock : `${clock} ${zoneNameAt(payment.expiresAt, zone)}`;
  const text =
    day === dayInZone(now, zone)
      ? t('pay.deadline', { time })
      : t('pay.deadlineOn', { time, date: formatMonthDayInZone(payment.expiresAt, zone, t.locale) });
  return html`<time datetime="${payment.expiresAt.toISOString()}">${text}</time>`;
}

/**
 * The transfer first, as a shopper on a phone needs it: the one instruction, then the details to
 * copy (account number and deposit code each select in one tap: `user-select: all`, no script).
 */
function transfer(t: PayScreenT, payment: PayScreenPayment, account: BankAccount): SafeHtml {
  const due = formatWon(outstandingOf(payment));
  const code = payment.depositCode ? formatDepositCode(payment.depositCode) : '—';
  return html`<section aria-labelledby="transfer-heading">
    <h2 id="transfer-heading">${t.html('pay.transfer.heading')}</h2>
    ${
      payment.vouchersApplied > 0
        ? html`<p class="note">
            ${t.html('pay.vouchersApplied', {
              applied: html`<strong>${formatWon(payment.vouchersApplied)}</strong>`,
              due: html`<strong>${due}</strong>`,
            })}
          </p>`
        : null
    }
    <p class="instruction">${t.html('pay.transfer.instruction', { amount: due, code })}</p>
    <dl>
      <dt>${t.html('pay.transfer.bank')}</dt>
      <dd>${account.bankName}</dd>
      <dt>${t.html('pay.transfer.account')}</dt>
      <dd><span class="code copy" id="account-number">${account.accountNumber}</span></dd>
      <dt>${t.html('pay.transfer.holder')}</dt>
      <dd>${account.holder}</dd>
      <dt>${t.html('pay.transfer.code')}</dt>
      <dd><span class="code copy" id="deposit-code">${code}</span></dd>
      <dt>${t.html('pay.transfer.amount')}</dt>
      <dd>${due}</dd>
    </dl>
    <p class="note">${t.html('pay.transfer.tapToSelect')}</p>
    <p class="note">${t.html('pay.transfer.after')}</p>
  </section>`;
}

function details(t: PayScreenT, payment: PayScreenPayment): SafeHtml {
  return html`<section class="details" aria-labelledby="details-heading">
    <h2 id="details-heading">${t.html('pay.details.heading')}</h2>
    <dl>
      <dt>${t.html('pay.details.merchant')}</dt>
      <dd>${payment.merchantName}</dd>
      <dt>${t.html('pay.details.order')}</dt>
      <dd>${payment.orderId}</dd>
      <dt>${t.html('pay.details.status')}</dt>
      <dd id="status">${t(STATUS_TEXT[payment.status])}</dd>
    </dl>
  </section>`;
}

export function renderPayScreen(
  payment: PayScreenPayment,
  csrfToken: string,
  nonce: string,
  account: BankAccount,
  locale: Locale,
  now = new Date(),
  cashReceiptError?: CashReceiptFormError,
): string {
  const t = payScreenT(locale);
  const merchant = payment.merchantName;
  const finished = payment.status !== 'pending';
  const amount = formatWon(payment.amount);
  const screenTitle = `${amount} · ${merchant} · payhook`;
  // A form sent back with an error says so first, where a screen reader starts reading.
  const title = cashReceiptError ? t('receipt.errorTitle', { title: screenTitle }) : screenTitle;
  const total = html`<dl class="total">
    <dt>${t.html('pay.amount')}</dt>
    <dd class="amount">${amount}</dd>
    ${finished ? null : html`<dd class="deadline">${deadline(t, payment, now)}</dd>`}
  </dl>`;

  if (finished) {
    // The body of the 303 back to the merchant, for anything that does not follow redirects.
    return page(
      t,
      title,
      nonce,
      html`<div class="card">
        ${testBanner(t, payment)}
        <h1>${t.html('pay.heading', { merchant })}</h1>
        ${total}
        <p class="status" role="status">${t(STATUS_TEXT[payment.status])}</p>
        <a class="button" href="${returnUrlWith(payment.returnUrl, payment)}">${t.html('pay.return', { merchant })}</a>
        ${details(t, payment)}
      </div>`,
    );
  }

  const path = `/p/${payment.suffix}`;
  // Test mode: the buttons first (what a developer came for), then the screen a shopper sees.
  const testActions = payment.livemode
    ? null
    : PAY_SCREEN_ACTIONS.map(
        (action) =>
          html`<form method="post" action="${path}/${action}">
            <input type="hidden" name="csrf" value="${csrfToken}" />
            <button type="submit" class="${action === 'complete' ? '' : action === 'fail' ? 'danger' : 'secondary'}">
              ${t(ACTION_TEXT[action])}
            </button>
          </form>`,
      );
  // No self-refresh (WCAG 2.2.1): the payer checks when they have paid, as often as they like. A test
  // deposit or voucher completes the payment out of sight, as a real one would.
  const check = payment.livemode
    ? html`<p class="note" role="status">${t.html('pay.check.live', { merchant })}</p>
        <a class="button" href="${path}">${t.html('pay.check')}</a>`
    : html`<p class="note">${t.html('pay.check.test', { merchant })}</p>
        <a class="button secondary" href="${path}">${t.html('pay.check')}</a>`;

  const body = html`<div class="card">
    ${languageSwitch(t, path)} ${testBanner(t, payment)}
    <h1>${t.html('pay.heading', { merchant })}</h1>
    ${total} ${testActions} ${transfer(t, payment, account)}
    ${cashReceiptSection(t, payment, csrfToken, cashReceiptError)} ${check}
    <section aria-labelledby="vouchers-heading">
      <h2 id="vouchers-heading">${t.html('pay.vouchers.heading')}</h2>
      <p><a href="${path}/vouchers">${t.html('pay.vouchers.link')}</a></p>
    </section>
    ${details(t, payment)}
  </div>`;
  return page(t, title, nonce, body);
}

/** Stands for the nonce in a page rendered once: no text of ours holds a NUL. */
const NONCE_MARK = '\u0000';

/**
 * A page that differs between requests only by its nonce (the 404 and 403 pages in a language):
 * rendered and escaped once, then each request's nonce put in its one place.
 */
function renderedOnce(render: (nonce: string) => string): (nonce: string) => string {
  const [before, after, ...more] = render(NONCE_MARK).split(NONCE_MARK);
  if (after === undefined || more.length > 0) throw new Error('a page rendered once must hold its nonce once');
  return (nonce) => before + nonce + after;
}

const notFoundPages = new Map(
  LOCALES.map((locale) => {
    const t = payScreenT(locale);
    const body = html`<div class="card">
      <h1>${t.html('notFound.heading')}</h1>
      <p class="note">${t.html('notFound.body')}</p>
    </div>`;
    return [locale, renderedOnce((nonce) => page(t, `${t('notFound.heading')} · payhook`, nonce, body))];
  }),
);

export function renderNotFound(nonce: string, locale: Locale): string {
  return notFoundPages.get(locale)!(nonce);
}

const FORBIDDEN_REASONS = ['forbidden.formExpired', 'forbidden.liveComplete', 'forbidden.escrowFormExpired'] as const;
export type ForbiddenReason = (typeof FORBIDDEN_REASONS)[number];

const forbiddenPages = new Map(
  LOCALES.flatMap((locale) => {
    const t = payScreenT(locale);
    return FORBIDDEN_REASONS.map((reason) => {
      const body = html`<div class="card">
        <h1>${t.html('forbidden.heading')}</h1>
        <p class="note">${t(reason)}</p>
      </div>`;
      const render = renderedOnce((nonce) => page(t, `${t('forbidden.heading')} · payhook`, nonce, body));
      return [`${locale} ${reason}`, render] as const;
    });
  }),
);

export function renderForbidden(nonce: string, locale: Locale, reason: ForbiddenReason): string {
  return forbiddenPages.get(`${locale} ${reason}`)!(nonce);
}
