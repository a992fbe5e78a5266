import type { RefundView } from '@payhook/contracts';
import { html, type SafeHtml } from '../../../platform/html/html';
import { formatWon } from '../../pay-screen/format';
import { badge, canUse, consolePage, csrfField, timeIn } from '../shared/console-layout.view';
import { REFUND_ACCOUNT_FIELD_MAX_CHARS, REFUND_REASON_MAX_CHARS } from '../../../money/refunds';
import {
  maskedAccountNumber,
  type RefundField,
  type RefundFormErrors,
  type RefundFormValues,
  type RefundRequest,
} from './console-refund-form';
import type { PaymentDetail } from '../payments/console-payments.service';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';

/** The refund form as the payment page shows it: empty, as typed, or as typed with what was wrong. */
export interface RefundFormState {
  values: RefundFormValues;
  errors: RefundFormErrors;
}

export interface HistoryLine {
  at: Date;
  text: string;
}

/** Each refund's steps, for the payment's state history. */
export function refundHistory(refunds: readonly RefundView[]): HistoryLine[] {
  return refunds.flatMap((refund) => {
    const amount = formatWon(refund.amount);
    const lines: HistoryLine[] = [
      { at: new Date(refund.createdAt), text: `Refund of ${amount} requested (${refund.id})` },
    ];
    if (refund.succeededAt) lines.push({ at: new Date(refund.succeededAt), text: `Refund of ${amount} succeeded` });
    if (refund.failedAt) lines.push({ at: new Date(refund.failedAt), text: `Refund of ${amount} failed` });
    return lines;
  });
}

/** One refund as a short description list: the payment's column is too narrow for a table of seven fields. */
function refundItem(refund: RefundView, zone: string) {
  return html`<li class="event" id="${refund.id}">
    <h3>${formatWon(refund.amount)} ${badge(session.locale, refund.status)}</h3>
    <dl>
      <dt>Refund</dt>
      <dd><code>${refund.id}</code></dd>
      <dt>Reason</dt>
      <dd>${refund.reason ?? html`<span class="muted">—</span>`}</dd>
      <dt>Created</dt>
      <dd>${timeIn(refund.createdAt, zone)}</dd>
      <dt>Succeeded</dt>
      <dd>${timeIn(refund.succeededAt, zone)}</dd>
      <dt>Failed</dt>
      <dd>
        ${timeIn(refund.failedAt, zone)}
        ${refund.failureReason ? html`<br /><span class="muted">${refund.failureReason}</span>` : null}
      </dd>
    </dl>
  </li>`;
}

function refundsList(refunds: readonly RefundView[], zone: string) {
  if (refunds.length === 0) return html`<p class="muted">No refunds.</p>`;
  return html`<ul class="refunds" aria-label="Refunds of this payment, newest first">
    ${refunds.map((refund) => refundItem(refund, zone))}
  </ul>`;
}

interface FieldOptions {
  label: string;
  hint?: string;
  maxChars: number;
  attributes?: SafeHtml;
}

/** A labelled input with its hint and its error, both tied to it by aria-describedby. */
function field(name: RefundField, state: RefundFormState, options: FieldOptions) {
  const id = `refund-${name}`;
  const error = state.errors[name];
  const describedBy = [options.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
    <label for="${id}">${options.label}</label>
    ${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : null}
    ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : null}
    <input
      type="text"
      id="${id}"
      name="${name}"
      value="${state.values[name]}"
      maxlength="${options.maxChars}"
      ${describedBy ? html`aria-describedby="${describedBy}"` : null}
      ${error ? html`aria-invalid="true"` : null}
      ${options.attributes ?? null}
    />
  </div>`;
}

function refundForm(detail: PaymentDetail, session: ConsoleSession, mode: ConsoleMode, state: RefundFormState) {
  const { payment } = detail;
  const invalid = Object.keys(state.errors).length > 0;
  const account =
    mode === 'live'
      ? html`<fieldset>
          <legend>Refund account (required for live refunds)</legend>
          ${field('bank', state, { label: 'Bank', maxChars: REFUND_ACCOUNT_FIELD_MAX_CHARS, attributes: html`autocomplete="off"` })}
          ${field('accountNumber', state, {
            label: 'Account number',
            maxChars: REFUND_ACCOUNT_FIELD_MAX_CHARS,
            attributes: html`autocomplete="off" inputmode="numeric"`,
          })}
          ${field('holderName', state, {
            label: 'Account holder name',
            maxChars: REFUND_ACCOUNT_FIELD_MAX_CHARS,
            attributes: html`autocomplete="off"`,
          })}
        </fieldset>`
      : null;
  return html`<form method="post" action="/console/payments/${payment.id}/refunds/review" class="refund-form" novalidate>
    <h3>Refund this payment</h3>
    ${invalid ? html`<p class="error" role="alert">The refund was not made: correct the fields marked below.</p>` : null}
    ${csrfField(session)}
    <input type="hidden" name="mode" value="${mode}" />
    ${field('amount', state, {
      label: 'Amount in won',
      hint: `Up to ${formatWon(detail.refundable)}, the part not yet refunded.`,
      maxChars: 15,
      attributes: html`inputmode="numeric" autocomplete="off" required`,
    })}
    ${field('reason', state, {
      label: 'Reason (optional)',
      hint: `Kept with the refund and sent in its webhook; up to ${REFUND_REASON_MAX_CHARS} characters.`,
      maxChars: REFUND_REASON_MAX_CHARS,
    })}
    ${account}
    <div class="actions"><button type="submit">Review refund…</button></div>
  </form>`;
}

/** The payment's refunds, what is left to refund, and (for a completed payment) the form to refund more. */
export function refundsCard(
  detail: PaymentDetail,
  session: ConsoleSession,
  mode: ConsoleMode,
  state: RefundFormState,
): SafeHtml {
  const zone = session.merchant.timeZone;
  const { payment } = detail;
  const summary =
    detail.status !== 'completed'
      ? html`<p class="muted">Only a completed payment can be refunded.</p>`
      : html`<p id="refund-remainder">
          ${formatWon(detail.refundable)} of ${formatWon(payment.amount)} left to refund
          ${
            detail.refundable < payment.amount
              ? html`<span class="muted">(succeeded and pending refunds count against it)</span>`
              : null
          }
        </p>`;
  const form =
    detail.status === 'completed' && detail.refundable > 0 && canUse(session, 'developer')
      ? refundForm(detail, session, mode, state)
      : null;
  return html`<section class="card" id="refunds" aria-labelledby="refunds-title">
    <h2 id="refunds-title">Refunds</h2>
    ${refundsList(detail.refunds, zone)} ${summary} ${form}
  </section>`;
}

export interface RefundConfirmModel {
  session: ConsoleSession;
  mode: ConsoleMode;
  detail: PaymentDetail;
  request: RefundRequest;
  idempotencyKey: string;
}

/** The confirmation step: it restates the refund, and nothing happens until Confirm is pressed. */
export function renderRefundConfirm(nonce: string, model: RefundConfirmModel): string {
  const { session, mode, detail, request } = model;
  const { payment } = detail;
  const amount = formatWon(request.amount);
  const account = request.refundAccount;
  const outcome = account
    ? `The refund stays pending until payhook has sent ${amount} to the account below; the payment's page shows when it has.`
    : 'In test mode the refund succeeds at once, and no money moves.';
  const hidden = (name: string, value: string | number | undefined) =>
    html`<input type="hidden" name="${name}" value="${value ?? ''}" />`;
  const body = html`<p><a href="/console/payments/${payment.id}?mode=${mode}">← Payment</a></p>
    <div class="card">
      <h1>Refund ${amount} of payment <code>${payment.id}</code> (order ${payment.orderId})?</h1>
      <dl>
        <dt>Refund</dt>
        <dd>${amount}</dd>
        <dt>Payment</dt>
        <dd>${formatWon(payment.amount)}, ${formatWon(detail.refundable)} of it left to refund</dd>
        <dt>Left after this refund</dt>
        <dd>${formatWon(Math.max(0, detail.refundable - request.amount))}</dd>
        <dt>Reason</dt>
        <dd>${request.reason ?? html`<span class="muted">none</span>`}</dd>
        <dt>Mode</dt>
        <dd>${mode}</dd>
        ${
          account
            ? html`<dt>Paid into</dt>
                <dd>${account.bank} account ${maskedAccountNumber(account.accountNumber)} of ${account.holderName}</dd>`
            : null
        }
      </dl>
      <p>${outcome}</p>
      <form method="post" action="/console/payments/${payment.id}/refunds" class="actions">
        ${csrfField(session)} ${hidden('mode', mode)} ${hidden('idempotencyKey', model.idempotencyKey)}
        ${hidden('amount', request.amount)} ${hidden('reason', request.reason)}
        ${
          account
            ? html`${hidden('bank', account.bank)} ${hidden('accountNumber', account.accountNumber)}
              ${hidden('holderName', account.holderName)}`
            : null
        }
        <button type="submit" class="danger">Confirm refund</button>
        <button type="submit" class="secondary" formaction="/console/payments/${payment.id}/refunds/edit">Back</button>
      </form>
    </div>`;
  return consolePage({ title: `Refund ${payment.orderId}`, nonce, session, section: 'payments', mode }, body);
}
