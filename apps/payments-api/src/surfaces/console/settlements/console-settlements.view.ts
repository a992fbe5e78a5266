import type { ListEnvelope } from '@payhook/contracts';
import { html, type SafeHtml } from '../../../platform/html/html';
import type { Locale } from '../../../platform/i18n/locale';
import { formatWon } from '../../pay-screen/format';
import { SALES_TIME_ZONE, type SettlementView } from '../../../money/settlements';
import { badge, consolePage, messages, modeSwitch, timeIn } from '../shared/console-layout.view';
import {
  NO_SETTLEMENT_FILTERS,
  settlementsExportHref,
  settlementsHref,
  type SettlementFilterValues,
  type SettlementsError,
} from './console-settlement-filters';
import type { SettlementTotals } from './console-settlements.service';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';
import { settlementsT } from './messages';

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
  error: SettlementsError | null;
}

/** `₩15,000`, and a refund record's negative amounts as `−₩375` (a minus sign, read out as "minus"). */
export function signedWon(amount: number): string {
  return amount < 0 ? `−${formatWon(-amount)}` : formatWon(amount);
}

/** Basis points as a percentage: 250 → `2.50%`. */
export function feeRate(feeBps: number): string {
  return `${(feeBps / 100).toFixed(2)}%`;
}

/**
 * When a record is paid out: its payout date, or (an escrow payment's record) that it is held until
 * the buyer confirms, when the date is set. The payment page says the same of its records.
 */
export function payoutText(locale: Locale, record: Pick<SettlementView, 'payoutStatus' | 'payoutDate'>): SafeHtml {
  if (record.payoutStatus === 'scheduled') return html`${record.payoutDate}`;
  return html`${badge(locale, 'held')} <span class="muted">${settlementsT(locale)('list.payoutHeld')}</span>`;
}

export function renderSettlementsList(nonce: string, model: SettlementsListModel): string {
  const { session, mode, values, page, day, totals } = model;
  const t = settlementsT(session.locale);
  const zone = session.merchant.timeZone;
  const filters = html`<form method="get" action="/console/settlements" class="filters" aria-label="${t('filters.label')}">
    <input type="hidden" name="mode" value="${mode}" />
    <label>${t('filters.date')} <input type="date" name="date" value="${values.date}" /></label>
    <label>${t('filters.from')} <input type="date" name="from" value="${values.from}" /></label>
    <label>${t('filters.to')} <input type="date" name="to" value="${values.to}" /></label>
    <div class="actions">
      <button type="submit">${t('filters.show')}</button>
      <a class="button secondary" href="${settlementsHref(mode, NO_SETTLEMENT_FILTERS)}">${t('filters.clear')}</a>
    </div>
  </form>`;

  const rows = (page?.data ?? []).map((row) => {
    const refund = row.type === 'refund';
    // A refund record leads to the refund on its payment's page.
    const href = `/console/payments/${row.paymentId}?mode=${mode}${refund && row.refundId ? `#${row.refundId}` : ''}`;
    return html`<tr>
      <td data-label="${t('list.salesDate')}" class="nowrap">${row.salesDate}</td>
      ${
        row.payoutStatus === 'scheduled'
          ? html`<td data-label="${t('list.payoutDate')}" class="nowrap">${row.payoutDate}</td>`
          : html`<td data-label="${t('list.payoutDate')}">${payoutText(session.locale, row)}</td>`
      }
      <td data-label="${t('list.type')}">${t(refund ? 'list.type.refund' : 'list.type.payment')}</td>
      <td data-label="${t('list.order')}"><a href="${href}">${row.orderId}</a></td>
      <td data-label="${t('list.gross')}" class="num">${signedWon(row.grossAmount)}</td>
      <td data-label="${t('list.fee')}" class="num">
        ${signedWon(row.feeAmount)} <span class="muted">(${feeRate(row.feeBps)})</span>
      </td>
      <td data-label="${t('list.vat')}" class="num">${signedWon(row.vatAmount)}</td>
      <td data-label="${t('list.net')}" class="num">${signedWon(row.netAmount)}</td>
      <td data-label="${t(refund ? 'list.refunded' : 'list.completed')}">${timeIn(row.completedAt, zone)}</td>
    </tr>`;
  });
  const footer =
    totals === null || day === null || rows.length === 0
      ? null
      : html`<tfoot>
          <tr class="totals">
            <th scope="row" colspan="4">
              ${t(model.paged || page?.hasMore ? 'list.totalAllPages' : 'list.total', { day, count: totals.count })}
            </th>
            <td data-label="${t('list.gross')}" class="num">${signedWon(totals.grossAmount)}</td>
            <td data-label="${t('list.fee')}" class="num">${signedWon(totals.feeAmount)}</td>
            <td data-label="${t('list.vat')}" class="num">${signedWon(totals.vatAmount)}</td>
            <td data-label="${t('list.net')}" class="num">${signedWon(totals.netAmount)}</td>
            <td></td>
          </tr>
          ${
            totals.held.count === 0
              ? null
              : html`<tr class="totals">
                  <th scope="row" colspan="4">${t('list.heldTotal', { count: totals.held.count })}</th>
                  <td data-label="${t('list.gross')}" class="num">${signedWon(totals.held.grossAmount)}</td>
                  <td data-label="${t('list.fee')}" class="num">${signedWon(totals.held.feeAmount)}</td>
                  <td data-label="${t('list.vat')}" class="num">${signedWon(totals.held.vatAmount)}</td>
                  <td data-label="${t('list.net')}" class="num">${signedWon(totals.held.netAmount)}</td>
                  <td></td>
                </tr>`
          }
        </tfoot>`;
  const empty = day ? t('list.emptyDay', { mode, day }) : t('list.empty', { mode });
  const table =
    page === null
      ? null
      : rows.length === 0
        ? html`<p class="muted">${empty}</p>`
        : html`<div class="scroll" tabindex="0" role="region" aria-label="${t('list.label')}">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">${t('list.salesDate')}</th>
                  <th scope="col">${t('list.payoutDate')}</th>
                  <th scope="col">${t('list.type')}</th>
                  <th scope="col">${t('list.order')}</th>
                  <th scope="col" class="num">${t('list.gross')}</th>
                  <th scope="col" class="num">${t('list.fee')}</th>
                  <th scope="col" class="num">${t('list.vat')}</th>
                  <th scope="col" class="num">${t('list.net')}</th>
                  <th scope="col">${t('list.time')}</th>
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
          <a class="button secondary" href="${settlementsExportHref(mode, day)}" download>${t('list.download')}</a>
        </div>`
      : page !== null
        ? html`<p class="muted">${t('list.chooseDay')}</p>`
        : null;
  const pager = html`<nav class="pager" aria-label="${t('list.pages')}">
    ${model.paged ? html`<a href="${settlementsHref(mode, values)}">${t('list.firstPage')}</a>` : null}
    ${
      page?.nextCursor
        ? html`<a href="${settlementsHref(mode, values, page.nextCursor)}" rel="next">${t('list.nextPage')}</a>`
        : null
    }
  </nav>`;

  const body = html`<h1>${t('page.title')}</h1>
    <p class="zone">${t('page.intro', { salesZone: SALES_TIME_ZONE, zone })}</p>
    ${modeSwitch(session.locale, mode, (target) => settlementsHref(target, values))}
    ${messages(null, model.error && t(model.error))}
    <div class="card">${filters}</div>
    <div class="card">${table} ${download} ${pager}</div>`;
  return consolePage({ title: t('page.title'), nonce, session, section: 'settlements', mode }, body);
}
