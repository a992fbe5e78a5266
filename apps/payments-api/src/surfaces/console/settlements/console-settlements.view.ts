import type { ListEnvelope } from '@payhook/contracts';
import { html } from '../../../platform/html/html';
import { formatWon } from '../../pay-screen/format';
import { SALES_TIME_ZONE, type SettlementView } from '../../../money/settlements';
import { consolePage, messages, modeSwitch, timeIn } from '../shared/console-layout.view';
import {
  NO_SETTLEMENT_FILTERS,
  settlementsExportHref,
  settlementsHref,
  type SettlementFilterValues,
} from './console-settlement-filters';
import type { SettlementTotals } from './console-settlements.service';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';

export interface SettlementsListModel {
  session: ConsoleSession;
  mode: ConsoleMode;
  values: SettlementFilterValues;
  /** The one sales date selected, if any. */
  day: string | null;
  /** Null when the filters were refused. */
  page: ListEnvelope<SettlementView> | null;
  /** The selected date's totals; null without one. */
  totals: SettlementTotals | null;
  paged: boolean;
  error: string | null;
}

/** `₩15,000`, and a refund record's negative amounts as `−₩375` (a minus sign, read out as "minus"). */
export function signedWon(amount: number): string {
  return amount < 0 ? `−${formatWon(-amount)}` : formatWon(amount);
}

/** Basis points as a percentage: 250 → `2.50%`. */
export function feeRate(feeBps: number): string {
  return `${(feeBps / 100).toFixed(2)}%`;
}

export function renderSettlementsList(nonce: string, model: SettlementsListModel): string {
  const { session, mode, values, page, day, totals } = model;
  const zone = session.merchant.timeZone;
  const filters = html`<form method="get" action="/console/settlements" class="filters" aria-label="Filters">
    <input type="hidden" name="mode" value="${mode}" />
    <label>Sales date <input type="date" name="date" value="${values.date}" /></label>
    <label>Or from <input type="date" name="from" value="${values.from}" /></label>
    <label>To (inclusive) <input type="date" name="to" value="${values.to}" /></label>
    <div class="actions">
      <button type="submit">Show</button>
      <a class="button secondary" href="${settlementsHref(mode, NO_SETTLEMENT_FILTERS)}">Clear</a>
    </div>
  </form>`;

  const rows = (page?.data ?? []).map((row) => {
    const refund = row.type === 'refund';
    // A refund record leads to the refund on its payment's page.
    const href = `/console/payments/${row.paymentId}?mode=${mode}${refund && row.refundId ? `#${row.refundId}` : ''}`;
    return html`<tr>
      <td data-label="Sales date" class="nowrap">${row.salesDate}</td>
      <td data-label="Payout date" class="nowrap">${row.payoutDate}</td>
      <td data-label="Type">${refund ? 'Refund' : 'Payment'}</td>
      <td data-label="Order"><a href="${href}">${row.orderId}</a></td>
      <td data-label="Gross" class="num">${signedWon(row.grossAmount)}</td>
      <td data-label="Fee" class="num">
        ${signedWon(row.feeAmount)} <span class="muted">(${feeRate(row.feeBps)})</span>
      </td>
      <td data-label="VAT" class="num">${signedWon(row.vatAmount)}</td>
      <td data-label="Net" class="num">${signedWon(row.netAmount)}</td>
      <td data-label="${refund ? 'Refunded' : 'Completed'}">${timeIn(row.completedAt, zone)}</td>
    </tr>`;
  });
  const footer =
    totals === null || rows.length === 0
      ? null
      : html`<tfoot>
          <tr class="totals">
            <th scope="row" colspan="4">
              Total of ${day} (${totals.count} ${totals.count === 1 ? 'record' : 'records'}${model.paged || page?.hasMore ? ', all pages' : ''})
            </th>
            <td data-label="Gross" class="num">${signedWon(totals.grossAmount)}</td>
            <td data-label="Fee" class="num">${signedWon(totals.feeAmount)}</td>
            <td data-label="VAT" class="num">${signedWon(totals.vatAmount)}</td>
            <td data-label="Net" class="num">${signedWon(totals.netAmount)}</td>
            <td></td>
          </tr>
        </tfoot>`;
  const empty = day ? `No ${mode} settlements on ${day}.` : `No ${mode} settlements match.`;
  const table =
    page === null
      ? null
      : rows.length === 0
        ? html`<p class="muted">${empty}</p>`
        : html`<div class="scroll" tabindex="0" role="region" aria-label="Settlement records">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Sales date</th>
                  <th scope="col">Payout date</th>
                  <th scope="col">Type</th>
                  <th scope="col">Order</th>
                  <th scope="col" class="num">Gross</th>
                  <th scope="col" class="num">Fee</th>
                  <th scope="col" class="num">VAT</th>
                  <th scope="col" class="num">Net</th>
                  <th scope="col">Completed or refunded</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
              ${footer}
            </table>
          </div>`;
  const download =
    page !== null && day !== null
      ? html`<div class="actions">
          <a class="button secondary" href="${settlementsExportHref(mode, day)}" download>Download CSV</a>
        </div>`
      : page !== null
        ? html`<p class="muted">Choose one sales date to see its totals and download its CSV.</p>`
        : null;
  const pager = html`<nav class="pager" aria-label="Pages">
    ${model.paged ? html`<a href="${settlementsHref(mode, values)}">First page</a>` : null}
    ${page?.nextCursor ? html`<a href="${settlementsHref(mode, values, page.nextCursor)}" rel="next">Next page</a>` : null}
  </nav>`;

  const body = html`<h1>Settlements</h1>
    <p class="zone">
      Newest sales first; a refund is a record of its own, with negative amounts, on the date it succeeded. Sales and
      payout dates are calendar days in ${SALES_TIME_ZONE}; times in ${zone}.
    </p>
    ${modeSwitch(session.locale, mode, (target) => settlementsHref(target, values))} ${messages(null, model.error)}
    <div class="card">${filters}</div>
    <div class="card">${table} ${download} ${pager}</div>`;
  return consolePage({ title: 'Settlements', nonce, session, section: 'settlements', mode }, body);
}
