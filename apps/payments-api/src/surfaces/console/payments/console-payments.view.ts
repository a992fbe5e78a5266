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
  const zone = session.merchant.timeZone;
  const statusOptions = ['', ...PAYMENT_STATUSES].map(
    (status) =>
      html`<option value="${status}" ${status === values.status ? html`selected` : null}>${status || 'Any'}</option>`,
  );
  const filters = html`<form method="get" action="/console/payments" class="filters" aria-label="Filters">
    <input type="hidden" name="mode" value="${mode}" />
    <label>Status <select name="status">${statusOptions}</select></label>
    <label>Order id <input name="orderId" value="${values.orderId}" maxlength="${ORDER_ID_MAX_CHARS}" /></label>
    <label>Customer id <input name="customerId" value="${values.customerId}" maxlength="${CUSTOMER_ID_MAX_CHARS}" /></label>
    <label>From <input type="date" name="createdFrom" value="${values.createdFrom}" /></label>
    <label>To (inclusive) <input type="date" name="createdTo" value="${values.createdTo}" /></label>
    <div class="actions">
      <button type="submit">Filter</button>
      <a class="button secondary" href="${paymentsHref(mode, NO_FILTERS)}">Clear</a>
    </div>
  </form>`;

  const rows = (page?.data ?? []).map(
    (payment) => html`<tr>
      <td data-label="Created">${timeIn(payment.createdAt, zone)}</td>
      <td data-label="Payment"><a href="/console/payments/${payment.id}?mode=${mode}"><code>${payment.id}</code></a></td>
      <td data-label="Order">${payment.orderId}</td>
      <td data-label="Customer">${payment.customerId}</td>
      <td data-label="Amount" class="num">${formatWon(payment.amount)}</td>
      <td data-label="Status">${badge(session.locale, effectiveStatus(payment))} ${refundMark(payment)}</td>
    </tr>`,
  );
  const table =
    page === null
      ? null
      : rows.length === 0
        ? html`<p class="muted">No ${mode} payments match.</p>`
        : html`<div class="scroll" tabindex="0" role="region" aria-label="Payments">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Payment</th>
                  <th scope="col">Order</th>
                  <th scope="col">Customer</th>
                  <th scope="col" class="num">Amount</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>
          </div>`;
  const pager = html`<nav class="pager" aria-label="Pages">
    ${model.paged ? html`<a href="${paymentsHref(mode, values)}">First page</a>` : null}
    ${page?.nextCursor ? html`<a href="${paymentsHref(mode, values, page.nextCursor)}" rel="next">Next page</a>` : null}
  </nav>`;

  const body = html`<h1>Payments</h1>
    <p class="zone">Times in ${zone}.</p>
    ${modeSwitch(session.locale, mode, (target) => paymentsHref(target, values))} ${messages(null, model.error)}
    <div class="card">${filters}</div>
    <div class="card">${table} ${pager}</div>`;
  return consolePage({ title: 'Payments', nonce, session, section: 'payments', mode }, body);
}

/** A completed payment's refunds at a glance: all of it, or how much of it. */
function refundMark(payment: PaymentRecord): SafeHtml | null {
  if (payment.refundedAmount <= 0) return null;
  return payment.refundedAmount >= payment.amount
    ? html`<span class="badge">refunded</span>`
    : html`<span class="badge">${formatWon(payment.refundedAmount)} refunded</span>`;
}
