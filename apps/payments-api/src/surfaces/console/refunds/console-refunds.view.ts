import type { RefundView } from '@payhook/contracts';
import { html, type SafeHtml } from '../../../platform/html/html';
import type { Locale } from '../../../platform/i18n/locale';
import { formatWon } from '../../pay-screen/format';
import { badge, canUse, consolePage, csrfField, timeIn } from '../shared/console-layout.view';
import { defaultRefundTaxFree, REFUND_ACCOUNT_FIELD_MAX_CHARS, REFUND_REASON_MAX_CHARS } from '../../../money/refunds';
import {
  maskedAccountNumber,
  type RefundField,
  type RefundFormErrors,
  type RefundFormValues,
  type RefundRequest,
} from './console-refund-form';
import type { PaymentDetail } from '../payments/console-payments.service';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';
import { consoleRefundsT, type ConsoleRefundsT } from './messages';

/** The refund form as the payment page shows it: empty, as typed, or as typed with what was wrong. */
export interface RefundFormState {
  values: RefundFormValues;
  errors: RefundFormErrors;
}

export interface HistoryLine {
  at: Date;
  text: SafeHtml;
}

/** Each refund's steps, for the payment's state history (in the payment page's language). */
export function refundHistory(locale: Locale, refunds: readonly RefundView[]): HistoryLine[] {
  const t = consoleRefundsT(locale);
  return refunds.flatMap((refund) => {
    const amount = formatWon(refund.amount);
    const lines: HistoryLine[] = [
      {
        at: new Date(refund.createdAt),
        text: t.html('history.requested', { amount, id: html`<code>${refund.id}</code>` }),
      },
    ];
    if (refund.succeededAt)
      lines.push({ at: new Date(refund.succeededAt), text: t.html('history.succeeded', { amount }) });
    if (refund.failedAt) lines.push({ at: new Date(refund.failedAt), text: t.html('history.failed', { amount }) });
    return lines;
  });
}

/** One refund as a short description list: the payment's column is too narrow for a table of ten fields. */
function refundItem(t: ConsoleRefundsT, refund: RefundView, zone: string) {
  return html`<li class="event" id="${refund.id}">
    <h3>${formatWon(refund.amount)} ${badge(t.locale, refund.status)}</h3>
    <dl>
      <dt>${t('refund.id')}</dt>
      <dd><code>${refund.id}</code></dd>
      <dt>${t('refund.reason')}</dt>
      <dd>${refund.reason ?? html`<span class="muted">—</span>`}</dd>
      <dt>${t('refund.taxFree')}</dt>
      <dd>${formatWon(refund.taxFreeAmount)}</dd>
      ${
        // Fixed when it succeeds, by the payment's running totals: none while pending or failed.
        refund.vat !== null && refund.suppliedAmount !== null
          ? html`<dt>${t('refund.vat')}</dt>
              <dd>${formatWon(refund.vat)}</dd>
              <dt>${t('refund.supplied')}</dt>
              <dd>${formatWon(refund.suppliedAmount)}</dd>`
          : null
      }
      <dt>${t('refund.created')}</dt>
      <dd>${timeIn(refund.createdAt, zone)}</dd>
      <dt>${t('refund.succeeded')}</dt>
      <dd>${timeIn(refund.succeededAt, zone)}</dd>
      <dt>${t('refund.failed')}</dt>
      <dd>
        ${timeIn(refund.failedAt, zone)}
        ${refund.failureReason ? html`<br /><span class="muted">${refund.failureReason}</span>` : null}
      </dd>
    </dl>
  </li>`;
}

function refundsList(t: ConsoleRefundsT, refunds: readonly RefundView[], zone: string) {
  if (refunds.length === 0) return html`<p class="muted">${t('card.none')}</p>`;
  return html`<ul class="refunds" aria-label="${t('card.list')}">
    ${refunds.map((refund) => refundItem(t, refund, zone))}
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

function refundForm(
  t: ConsoleRefundsT,
  detail: PaymentDetail,
  session: ConsoleSession,
  mode: ConsoleMode,
  state: RefundFormState,
) {
  const { payment } = detail;
  const invalid = Object.keys(state.errors).length > 0;
  const account =
    mode === 'live'
      ? html`<fieldset>
          <legend>${t('form.account')}</legend>
          ${field('bank', state, {
            label: t('form.bank'),
            maxChars: REFUND_ACCOUNT_FIELD_MAX_CHARS,
            attributes: html`autocomplete="off"`,
          })}
          ${field('accountNumber', state, {
            label: t('form.accountNumber'),
            maxChars: REFUND_ACCOUNT_FIELD_MAX_CHARS,
            attributes: html`autocomplete="off" inputmode="numeric"`,
          })}
          ${field('holderName', state, {
            label: t('form.holderName'),
            maxChars: REFUND_ACCOUNT_FIELD_MAX_CHARS,
            attributes: html`autocomplete="off"`,
          })}
        </fieldset>`
      : null;
  return html`<form method="post" action="/console/payments/${payment.id}/refunds/review" class="refund-form" novalidate>
    <h3>${t('form.title')}</h3>
    ${invalid ? html`<p class="error" role="alert">${t('form.invalid')}</p>` : null}
    ${csrfField(session)}
    <input type="hidden" name="mode" value="${mode}" />
    ${field('amount', state, {
      label: t('form.amount'),
      hint: t('form.amount.hint', { amount: formatWon(detail.refundable) }),
      maxChars: 15,
      attributes: html`inputmode="numeric" autocomplete="off" required`,
    })}
    ${
      // A payment with nothing tax-free left has one answer here (0): the field shows when it can matter,
      // or when a value was typed (a refused one stays on the form with its error).
      detail.notYetRefunded.taxFreeAmount > 0 || state.values.taxFreeAmount !== '' || state.errors.taxFreeAmount
        ? field('taxFreeAmount', state, {
            label: t('form.taxFree'),
            hint: t('form.taxFree.hint', { left: formatWon(detail.notYetRefunded.taxFreeAmount) }),
            maxChars: 15,
            attributes: html`inputmode="numeric" autocomplete="off"`,
          })
        : null
    }
    ${field('reason', state, {
      label: t('form.reason'),
      hint: t('form.reason.hint', { max: REFUND_REASON_MAX_CHARS }),
      maxChars: REFUND_REASON_MAX_CHARS,
    })}
    ${account}
    <div class="actions"><button type="submit">${t('form.review')}</button></div>
  </form>`;
}

/** The payment's refunds, what is left to refund, and (for a completed payment) the form to refund more. */
export function refundsCard(
  detail: PaymentDetail,
  session: ConsoleSession,
  mode: ConsoleMode,
  state: RefundFormState,
): SafeHtml {
  const t = consoleRefundsT(session.locale);
  const zone = session.merchant.timeZone;
  const { payment } = detail;
  const summary =
    detail.status !== 'completed'
      ? html`<p class="muted">${t('error.notCompleted')}</p>`
      : html`<p id="refund-remainder">
          ${t('card.remainder', { left: formatWon(detail.refundable), amount: formatWon(payment.amount) })}
          ${detail.refundable < payment.amount ? html`<span class="muted">${t('card.remainderCounts')}</span>` : null}
        </p>`;
  const form =
    detail.status === 'completed' && detail.refundable > 0 && canUse(session, 'developer')
      ? refundForm(t, detail, session, mode, state)
      : null;
  return html`<section class="card" id="refunds" aria-labelledby="refunds-title">
    <h2 id="refunds-title">${t('card.title')}</h2>
    ${refundsList(t, detail.refunds, zone)} ${summary} ${form}
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
  const t = consoleRefundsT(session.locale);
  const amount = formatWon(request.amount);
  const account = request.refundAccount;
  // The tax-free part as asked, or the share the refund service will take of what is left (it decides
  // again under the payment's lock: another refund in between changes it).
  const left = detail.notYetRefunded;
  const taxFree =
    request.taxFreeAmount !== undefined
      ? formatWon(request.taxFreeAmount)
      : left.taxFreeAmount > 0
        ? t('confirm.taxFreeDefault', { amount: formatWon(defaultRefundTaxFree(request.amount, left)) })
        : null;
  const outcome = account ? t('confirm.live', { amount }) : t('confirm.test');
  const hidden = (name: string, value: string | number | undefined) =>
    html`<input type="hidden" name="${name}" value="${value ?? ''}" />`;
  const heading = t.html('confirm.heading', {
    amount,
    payment: html`<code>${payment.id}</code>`,
    order: payment.orderId,
  });
  const body = html`<p><a href="/console/payments/${payment.id}?mode=${mode}">${t('confirm.back')}</a></p>
    <div class="card">
      <h1>${heading}</h1>
      <dl>
        <dt>${t('confirm.refund')}</dt>
        <dd>${amount}</dd>
        <dt>${t('confirm.payment')}</dt>
        <dd>
          ${t('confirm.paymentValue', { amount: formatWon(payment.amount), left: formatWon(detail.refundable) })}
        </dd>
        <dt>${t('confirm.leftAfter')}</dt>
        <dd>${formatWon(Math.max(0, detail.refundable - request.amount))}</dd>
        ${
          taxFree
            ? html`<dt>${t('confirm.taxFree')}</dt>
                <dd>${taxFree}</dd>`
            : null
        }
        <dt>${t('confirm.reason')}</dt>
        <dd>${request.reason ?? html`<span class="muted">${t('confirm.noReason')}</span>`}</dd>
        <dt>${t('confirm.mode')}</dt>
        <dd>${t('confirm.modeValue', { mode })}</dd>
        ${
          account
            ? html`<dt>${t('confirm.paidInto')}</dt>
                <dd>
                  ${t('confirm.account', {
                    bank: account.bank,
                    number: maskedAccountNumber(account.accountNumber),
                    holder: account.holderName,
                  })}
                </dd>`
            : null
        }
      </dl>
      <p>${outcome}</p>
      <form method="post" action="/console/payments/${payment.id}/refunds" class="actions">
        ${csrfField(session)} ${hidden('mode', mode)} ${hidden('idempotencyKey', model.idempotencyKey)}
        ${hidden('amount', request.amount)}
        ${request.taxFreeAmount === undefined ? null : hidden('taxFreeAmount', request.taxFreeAmount)}
        ${hidden('reason', request.reason)}
        ${
          account
            ? html`${hidden('bank', account.bank)} ${hidden('accountNumber', account.accountNumber)}
              ${hidden('holderName', account.holderName)}`
            : null
        }
        <button type="submit" class="danger">${t('confirm.submit')}</button>
        <button type="submit" class="secondary" formaction="/console/payments/${payment.id}/refunds/edit">${t('confirm.edit')}</button>
      </form>
    </div>`;
  const title = t('confirm.title', { order: payment.orderId });
  return consolePage({ title, nonce, session, section: 'payments', mode }, body);
}
