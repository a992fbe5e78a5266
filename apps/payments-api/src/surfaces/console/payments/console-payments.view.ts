import { PAYMENT_STATUSES, type ListEnvelope } from '@payhook/contracts';
import { html, type SafeHtml } from '../../../platform/html/html';
import { formatWon } from '../../pay-screen/format';
import {
  CUSTOMER_ID_MAX_CHARS,
  effectiveStatus,
  ORDER_ID_MAX_CHARS,
  type PaymentRecord,
} from '../../../money/payments';
import { badge, consolePage, messages, modeSwitch, timeIn } from '../shared/console-layout.view';
import { paymentsHref, type PaymentFilterValues } from './console-payment-filters';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';
import { consoleSharedT } from '../shared/messages';
import { consolePaymentsT, type ConsolePaymentsT } from './messages';

export interface PaymentsListModel {
  session: ConsoleSession;
  mode: ConsoleMode;
  values: PaymentFilterValues;
  /** Null when the filters were refused. */
  page: ListEnvelope<PaymentRecord> | null;
  paged: boolean;
  error: string | null;
}

const NO_FILTERS: PaymentFilterValues = { status: '', orderId: '', customerId: '', createdFrom: '', createdTo: '' };

export function renderPaymentsList(nonce: string, model: PaymentsListModel): string {
  const { session, mode, values, page } = model;
  const t = consolePaymentsT(session.locale);
  const status = consoleSharedT(session.locale);
  const zone = session.merchant.timeZone;
  const option = (value: string, text: string) =>
    html`<option value="${value}" ${value === values.status ? html`selected` : null}>${text}</option>`;
  const statusOptions = [
    option('', t('list.filters.anyStatus')),
    ...PAYMENT_STATUSES.map((each) => option(each, status(`status.${each}`))),
  ];
  const filters = html`<form method="get" action="/console/payments" class="filters" aria-label="${t('list.filters')}">
    <input type="hidden" name="mode" value="${mode}" />
    <label>${t('list.filters.status')} <select name="status">${statusOptions}</select></label>
    <label>
      ${t('list.filters.orderId')} <input name="orderId" value="${values.orderId}" maxlength="${ORDER_ID_MAX_CHARS}" />
    </label>
    <label>
      ${t('list.filters.customerId')}
      <input name="customerId" value="${values.customerId}" maxlength="${CUSTOMER_ID_MAX_CHARS}" />
    </label>
    <label>${t('list.filters.from')} <input type="date" name="createdFrom" value="${values.createdFrom}" /></label>
    <label>${t('list.filters.to')} <input type="date" name="createdTo" value="${values.createdTo}" /></label>
    <div class="actions">
      <button type="submit">${t('list.filters.submit')}</button>
      <a class="button secondary" href="${paymentsHref(mode, NO_FILTERS)}">${t('list.filters.clear')}</a>
    </div>
  </form>`;

  const rows = (page?.data ?? []).map(
    (payment) => html`<tr>
      <td data-label="${t('list.created')}">${timeIn(payment.createdAt, zone)}</td>
      <td data-label="${t('list.payment')}">
        <a href="/console/payments/${payment.id}?mode=${mode}"><code>${payment.id}</code></a>
      </td>
      <td data-label="${t('list.order')}">${payment.orderId}</td>
      <td data-label="${t('list.customer')}">${payment.customerId}</td>
      <td data-label="${t('list.amount')}" class="num">${formatWon(payment.amount)}</td>
      <td data-label="${t('list.status')}">${badge(t.locale, effectiveStatus(payment))} ${refundMark(t, payment)}</td>
    </tr>`,
  );
  const table =
    page === null
      ? null
      : rows.length === 0
        ? html`<p class="muted">${t('list.none', { mode })}</p>`
        : html`<div class="scroll" tabindex="0" role="region" aria-label="${t('list.title')}">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">${t('list.created')}</th>
                  <th scope="col">${t('list.payment')}</th>
                  <th scope="col">${t('list.order')}</th>
                  <th scope="col">${t('list.customer')}</th>
                  <th scope="col" class="num">${t('list.amount')}</th>
                  <th scope="col">${t('list.status')}</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>
          </div>`;
  const pager = html`<nav class="pager" aria-label="${t('list.pages')}">
    ${model.paged ? html`<a href="${paymentsHref(mode, values)}">${t('list.firstPage')}</a>` : null}
    ${
      page?.nextCursor
        ? html`<a href="${paymentsHref(mode, values, page.nextCursor)}" rel="next">${t('list.nextPage')}</a>`
        : null
    }
  </nav>`;

  const body = html`<h1>${t('list.title')}</h1>
    <p class="zone">${t('page.zone', { zone })}</p>
    ${modeSwitch(t.locale, mode, (target) => paymentsHref(target, values))} ${messages(null, model.error)}
    <div class="card">${filters}</div>
    <div class="card">${table} ${pager}</div>`;
  return consolePage({ title: t('list.title'), nonce, session, section: 'payments', mode }, body);
}

/** A completed payment's refunds at a glance: all of it, or how much of it. */
function refundMark(t: ConsolePaymentsT, payment: PaymentRecord): SafeHtml | null {
  if (payment.refundedAmount <= 0) return null;
  return payment.refundedAmount >= payment.amount
    ? html`<span class="badge">${t('list.refunded')}</span>`
    : html`<span class="badge">${t('list.refundedPart', { amount: formatWon(payment.refundedAmount) })}</span>`;
}
