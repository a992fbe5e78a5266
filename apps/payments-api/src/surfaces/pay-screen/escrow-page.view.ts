import { REJECT_REASON_MAX_CHARS, type EscrowStatus } from '@payhook/contracts';
import { html, type SafeHtml } from '../../platform/html/html';
import type { Locale } from '../../platform/i18n/locale';
import { formatKoreanClock, formatKoreanDay, formatWon } from './format';
import { payScreenT, type PayScreenKey, type PayScreenT } from './messages';
import { languageSwitch, page, testBanner } from './pay-screen.view';

/** An escrow payment as its buyer's page shows it. The buyer's address and the link's token are not in it. */
export interface BuyerEscrowPage {
  merchantName: string;
  orderId: string;
  amount: number;
  livemode: boolean;
  status: EscrowStatus;
  carrier: string | null;
  trackingNumber: string | null;
  /** 00:00 Asia/Seoul of the day a shipped escrow confirms by itself. */
  autoConfirmAt: Date | null;
  confirmedAt: Date | null;
  autoConfirmed: boolean | null;
  rejectedAt: Date | null;
  rejectReason: string | null;
}

/**
 * Why the page is sent back after a form: the move was refused because the escrow is no longer
 * shipped (nothing changed), or the reason typed is not one (kept in the field, nothing changed).
 */
export type EscrowPageNotice = { kind: 'refused' } | { kind: 'invalid_reason'; reason: string };

/** The reject form's section: the form posts to it and a page with its error comes back to it (`#reject`). */
export const REJECT_SECTION = 'reject';

const STATUS_TEXT: Record<EscrowStatus, PayScreenKey> = {
  awaiting_shipment: 'escrow.status.awaiting_shipment',
  shipped: 'escrow.status.shipped',
  confirmed: 'escrow.status.confirmed',
  rejected: 'escrow.status.rejected',
};

const CONFLICT_TEXT: Record<EscrowStatus, PayScreenKey> = {
  awaiting_shipment: 'escrow.conflict.other',
  shipped: 'escrow.conflict.other',
  confirmed: 'escrow.conflict.confirmed',
  rejected: 'escrow.conflict.rejected',
};

/** A day and a time in Korea, each in a `<time>` that says the instant. */
function when(t: PayScreenT, instant: Date): { date: SafeHtml; time: SafeHtml } {
  const datetime = instant.toISOString();
  return {
    date: html`<time datetime="${datetime}">${formatKoreanDay(instant, t.locale)}</time>`,
    time: html`${formatKoreanClock(instant)}`,
  };
}

/** The two forms of a shipped escrow: confirm, or reject with a reason (its error, if any, tied to the field). */
function forms(t: PayScreenT, escrow: BuyerEscrowPage, path: string, csrfToken: string, typed?: string): SafeHtml {
  const autoConfirm = escrow.autoConfirmAt
    ? html`<p class="instruction">
        ${t.html('escrow.autoConfirm', { date: when(t, escrow.autoConfirmAt).date })}
      </p>`
    : null;
  const error = typed === undefined ? null : t('escrow.reject.error', { max: REJECT_REASON_MAX_CHARS });
  return html`<p class="note">${t.html('escrow.intro')}</p>
    ${autoConfirm}
    <section aria-labelledby="confirm-heading">
      <h2 id="confirm-heading">${t.html('escrow.confirm.heading')}</h2>
      <p class="note">${t.html('escrow.confirm.note')}</p>
      <form method="post" action="${path}/confirm">
        <input type="hidden" name="csrf" value="${csrfToken}" />
        <button type="submit">${t.html('escrow.confirm.button')}</button>
      </form>
    </section>
    <section id="${REJECT_SECTION}" aria-labelledby="reject-heading">
      <h2 id="reject-heading">${t.html('escrow.reject.heading')}</h2>
      <p class="note">${t.html('escrow.reject.note')}</p>
      <form method="post" action="${path}/reject#${REJECT_SECTION}">
        <input type="hidden" name="csrf" value="${csrfToken}" />
        <label for="reject-reason">${t.html('escrow.reject.reason')}</label>
        <p class="note" id="reject-reason-hint">${t.html('escrow.reject.hint', { max: REJECT_REASON_MAX_CHARS })}</p>
        ${error ? html`<p class="field-error" id="reject-reason-error">${error}</p>` : null}
        <textarea
          class="prose"
          id="reject-reason"
          name="reason"
          required
          aria-describedby="${error ? 'reject-reason-error reject-reason-hint' : 'reject-reason-hint'}"
          ${error ? html`aria-invalid="true"` : null}
        >
${typed ?? ''}</textarea
        >
        <button type="submit" class="danger">${t.html('escrow.reject.button')}</button>
      </form>
    </section>`;
}

/** What became of a confirmed or rejected escrow, said where a screen reader finds it. */
function outcome(t: PayScreenT, escrow: BuyerEscrowPage): SafeHtml | null {
  if (escrow.status === 'confirmed' && escrow.confirmedAt) {
    const key = escrow.autoConfirmed ? 'escrow.outcome.autoConfirmed' : 'escrow.outcome.confirmed';
    return html`<div class="alert ok" id="outcome" role="status">
      <p>${t.html(key, when(t, escrow.confirmedAt))}</p>
    </div>`;
  }
  if (escrow.status === 'rejected' && escrow.rejectedAt) {
    return html`<div class="alert" id="outcome" role="status">
      <p>${t.html('escrow.outcome.rejected', when(t, escrow.rejectedAt))}</p>
      <dl>
        <dt>${t.html('escrow.outcome.reason')}</dt>
        <dd class="reason" id="reject-reason-kept">${escrow.rejectReason ?? ''}</dd>
      </dl>
    </div>`;
  }
  return null;
}

function details(t: PayScreenT, escrow: BuyerEscrowPage): SafeHtml {
  return html`<section class="details" aria-labelledby="details-heading">
    <h2 id="details-heading">${t.html('escrow.details.heading')}</h2>
    <dl>
      <dt>${t.html('escrow.details.merchant')}</dt>
      <dd>${escrow.merchantName}</dd>
      <dt>${t.html('escrow.details.order')}</dt>
      <dd>${escrow.orderId}</dd>
      <dt>${t.html('escrow.details.carrier')}</dt>
      <dd>${escrow.carrier ?? '—'}</dd>
      <dt>${t.html('escrow.details.trackingNumber')}</dt>
      <dd><span class="code" id="tracking-number">${escrow.trackingNumber ?? '—'}</span></dd>
      <dt>${t.html('escrow.details.status')}</dt>
      <dd id="escrow-status">${t(STATUS_TEXT[escrow.status])}</dd>
      ${
        escrow.status === 'shipped' && escrow.autoConfirmAt
          ? html`<dt>${t.html('escrow.details.autoConfirmAt')}</dt>
              <dd>${t.html('escrow.details.autoConfirmAtValue', { date: when(t, escrow.autoConfirmAt).date })}</dd>`
          : null
      }
    </dl>
  </section>`;
}

/**
 * The buyer's page of an escrow payment (/e/{token}): the seller, the amount, then either the two
 * forms (a shipped escrow) or what became of it; the order, carrier and tracking number below. A
 * form sent back says why first: the move refused (409), or the reason wrong (400, kept in the field).
 */
export function renderEscrowPage(
  escrow: BuyerEscrowPage,
  options: { path: string; csrfToken: string; nonce: string; locale: Locale; notice?: EscrowPageNotice },
): string {
  const { path, csrfToken, nonce, locale, notice } = options;
  const t = payScreenT(locale);
  const merchant = escrow.merchantName;
  const pageTitle = t('escrow.title', { merchant });
  const typed = notice?.kind === 'invalid_reason' ? notice.reason : undefined;
  const title = typed === undefined ? pageTitle : t('escrow.errorTitle', { title: pageTitle });
  const refused =
    notice?.kind === 'refused'
      ? html`<p class="alert" id="notice" role="alert">${t.html(CONFLICT_TEXT[escrow.status])}</p>`
      : null;
  const body = html`<div class="card">
    ${languageSwitch(t, path)} ${testBanner(t, escrow)}
    <h1>${t.html('escrow.heading', { merchant })}</h1>
    <dl class="total">
      <dt>${t.html('escrow.amount')}</dt>
      <dd class="amount">${formatWon(escrow.amount)}</dd>
    </dl>
    ${refused} ${escrow.status === 'shipped' ? forms(t, escrow, path, csrfToken, typed) : outcome(t, escrow)}
    ${details(t, escrow)}
  </div>`;
  return page(t, title, nonce, body);
}
