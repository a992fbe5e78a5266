import type { CashReceiptType, CashReceiptView } from '@payhook/contracts';
import { html, type SafeHtml } from '../../../platform/html/html';
import type { Locale } from '../../../platform/i18n/locale';
import { formatWon } from '../../pay-screen/format';
import { badge, timeIn } from '../shared/console-layout.view';
import { consoleCashReceiptsT, type ConsoleCashReceiptsKey, type ConsoleCashReceiptsT } from './messages';

const TYPES: Readonly<Record<CashReceiptType, ConsoleCashReceiptsKey>> = {
  income_deduction: 'receipt.type.income_deduction',
  expense_proof: 'receipt.type.expense_proof',
};

/** Reasons this page can say in words: test mode's refusal, and the tax office's as the operator reports it. */
const FAILURES: ReadonlyMap<string, ConsoleCashReceiptsKey> = new Map([
  ['identity_rejected', 'receipt.failure.identity_rejected'],
]);

/** Why it failed: a known code in words with the code itself; anything else as the operator wrote it, a code. */
function failureText(t: ConsoleCashReceiptsT, reason: string): SafeHtml {
  const key = FAILURES.get(reason);
  return key ? html`${t(key)} <code>${reason}</code>` : html`<code>${reason}</code>`;
}

/** Its approval number once issued, why not once failed, or that the tax office has not answered yet. */
function outcome(t: ConsoleCashReceiptsT, receipt: CashReceiptView, zone: string): SafeHtml {
  switch (receipt.status) {
    case 'issued':
      return html`<dt>${t('receipt.issueNumber')}</dt>
        <dd><code>${receipt.issueNumber}</code></dd>
        <dt>${t('receipt.issued')}</dt>
        <dd>${timeIn(receipt.issuedAt, zone)}</dd>`;
    case 'failed':
      return html`<dt>${t('receipt.failure')}</dt>
        <dd>${failureText(t, receipt.failureReason ?? '')}</dd>
        <dt>${t('receipt.failed')}</dt>
        <dd>${timeIn(receipt.failedAt, zone)}</dd>`;
    case 'pending':
      return html`<dt>${t('receipt.issueNumber')}</dt>
        <dd class="muted">${t('receipt.waiting')}</dd>`;
  }
}

/** One receipt as a short description list, as the refunds above it: the column is narrow. */
function receiptItem(t: ConsoleCashReceiptsT, receipt: CashReceiptView, zone: string) {
  const heading = t('receipt.heading', { transaction: receipt.transactionType, amount: formatWon(receipt.amount) });
  return html`<li class="event" id="${receipt.id}">
    <h3>${heading} ${badge(t.locale, receipt.status)}</h3>
    <dl>
      <dt>${t('receipt.id')}</dt>
      <dd><code>${receipt.id}</code></dd>
      ${
        receipt.refundId
          ? html`<dt>${t('receipt.refund')}</dt>
              <dd><a href="#${receipt.refundId}"><code>${receipt.refundId}</code></a></dd>`
          : null
      }
      <dt>${t('receipt.type')}</dt>
      <dd>${t(TYPES[receipt.type])}</dd>
      <dt>${t('receipt.identity')}</dt>
      <dd>
        <code>${receipt.identityNumber}</code>
        ${
          receipt.selfIssued
            ? html`<span class="badge">${t('receipt.selfIssued')}</span>
                <br /><span class="muted">${t('receipt.selfIssued.hint')}</span>`
            : null
        }
      </dd>
      <dt>${t('receipt.taxFree')}</dt>
      <dd>${formatWon(receipt.taxFreeAmount)}</dd>
      <dt>${t('receipt.vat')}</dt>
      <dd>${formatWon(receipt.vat)}</dd>
      <dt>${t('receipt.supplied')}</dt>
      <dd>${formatWon(receipt.suppliedAmount)}</dd>
      <dt>${t('receipt.created')}</dt>
      <dd>${timeIn(receipt.createdAt, zone)}</dd>
      ${outcome(t, receipt, zone)}
    </dl>
  </li>`;
}

/**
 * A payment's cash receipts (현금영수증): its issue receipt and the cancel receipt of each refund,
 * the buyer's number masked as the merchant API shows it.
 */
export function cashReceiptsCard(locale: Locale, receipts: readonly CashReceiptView[], zone: string): SafeHtml {
  const t = consoleCashReceiptsT(locale);
  const list =
    receipts.length === 0
      ? html`<p class="muted">${t('card.none')}</p>`
      : html`<ul class="receipts" aria-label="${t('card.list')}">
          ${receipts.map((receipt) => receiptItem(t, receipt, zone))}
        </ul>`;
  return html`<section class="card" id="cash-receipts" aria-labelledby="cash-receipts-title">
    <h2 id="cash-receipts-title">${t('card.title')}</h2>
    ${list}
  </section>`;
}
