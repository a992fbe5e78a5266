import { formatDepositCode } from '../../../money/deposits';
import { html, type SafeHtml } from '../../../platform/html/html';
import { formatWon } from '../../pay-screen/format';
import { SALES_TIME_ZONE, type SettlementView } from '../../../money/settlements';
import type { VoucherKind } from '../../../money/vouchers';
import { badge, timeIn } from '../shared/console-layout.view';
import type {
  PaymentDeposit,
  PaymentReviewCase,
  PaymentVoucher,
  RefundSettlementRecord,
} from '../../../money/payments';
import type { PaymentMoney } from './console-payments.service';
import { feeRate, payoutText, signedWon } from '../settlements/console-settlements.view';
import type { ConsolePaymentsKey, ConsolePaymentsT } from './messages';

const REASONS: Readonly<Record<string, ConsolePaymentsKey>> = {
  deposit_code_missing: 'money.reason.deposit_code_missing',
  deposit_code_unknown: 'money.reason.deposit_code_unknown',
  amount_short: 'money.reason.amount_short',
  amount_over: 'money.reason.amount_over',
  payment_completed: 'money.reason.payment_completed',
  payment_failed: 'money.reason.payment_failed',
  payment_canceled: 'money.reason.payment_canceled',
  payment_expired: 'money.reason.payment_expired',
  voucher_over_cover: 'money.reason.voucher_over_cover',
  escrow_rejected: 'money.reason.escrow_rejected',
};

const VOUCHER_KINDS: Readonly<Record<VoucherKind, ConsolePaymentsKey>> = {
  culture: 'money.vouchers.culture',
  book: 'money.vouchers.book',
};

/** Why a case was opened, in words; a reason this page does not know yet is shown as stored, a code. */
function reviewReasonText(t: ConsolePaymentsT, reason: string): SafeHtml | string {
  return Object.hasOwn(REASONS, reason) ? t(REASONS[reason]) : html`<code>${reason}</code>`;
}

function refundRecord(t: ConsolePaymentsT, record: RefundSettlementRecord) {
  const refund = html`<a href="#${record.refundId}"><code>${record.refundId}</code></a>`;
  return html`<h4>${t.html('money.refund', { refund })}</h4>
    <dl>
      <dt>${t('money.gross')}</dt>
      <dd>${signedWon(record.grossAmount)}</dd>
      <dt>${t('money.fee')}</dt>
      <dd>${signedWon(record.feeAmount)}</dd>
      <dt>${t('money.vat')}</dt>
      <dd>${signedWon(record.vatAmount)}</dd>
      <dt>${t('money.net')}</dt>
      <dd>${signedWon(record.netAmount)}</dd>
      <dt>${t('money.salesDate')}</dt>
      <dd>${record.salesDate}</dd>
      <dt>${t('money.payoutDate')}</dt>
      <dd>${payoutText(t.locale, record)}</dd>
    </dl>`;
}

function settlementSection(
  t: ConsolePaymentsT,
  settlement: SettlementView | null,
  refunds: readonly RefundSettlementRecord[],
) {
  if (settlement === null) return html`<p class="muted">${t('money.settlement.none')}</p>`;
  const net = refunds.reduce((sum, record) => sum + record.netAmount, settlement.netAmount);
  return html`<dl>
      <dt>${t('money.gross')}</dt>
      <dd>${formatWon(settlement.grossAmount)}</dd>
      <dt>${t('money.fee')}</dt>
      <dd>${formatWon(settlement.feeAmount)} <span class="muted">(${feeRate(settlement.feeBps)})</span></dd>
      <dt>${t('money.vat')}</dt>
      <dd>${formatWon(settlement.vatAmount)}</dd>
      <dt>${t('money.net')}</dt>
      <dd>${formatWon(settlement.netAmount)}</dd>
      <dt>${t('money.salesDate')}</dt>
      <dd>${settlement.salesDate}</dd>
      <dt>${t('money.payoutDate')}</dt>
      <dd>${payoutText(t.locale, settlement)}</dd>
    </dl>
    ${
      refunds.length === 0
        ? null
        : html`${refunds.map((record) => refundRecord(t, record))}
            <p><strong>${t('money.netAfterRefunds', { amount: signedWon(net) })}</strong></p>`
    }
    <p class="muted">${t('money.salesZone', { zone: SALES_TIME_ZONE })}</p>`;
}

function depositRow(t: ConsolePaymentsT, deposit: PaymentDeposit, zone: string) {
  return html`<tr>
    <td data-label="${t('money.deposits.received')}">${timeIn(deposit.receivedAt, zone)}</td>
    <td data-label="${t('money.deposits.amount')}" class="num">${formatWon(deposit.amount)}</td>
    <td data-label="${t('money.deposits.depositor')}">${deposit.depositorName}</td>
    <td data-label="${t('money.deposits.outcome')}">
      ${badge(t.locale, deposit.outcome)}
      ${deposit.reviewCaseId ? html`<a href="#${deposit.reviewCaseId}">${t('money.deposits.seeCase')}</a>` : null}
    </td>
    <td data-label="${t('money.deposits.bankTransaction')}"><code>${deposit.bankTransactionId}</code></td>
  </tr>`;
}

function depositsSection(t: ConsolePaymentsT, money: PaymentMoney, zone: string) {
  const code = money.depositCode
    ? html`<dl>
        <dt>${t('money.depositCode')}</dt>
        <dd><code>${formatDepositCode(money.depositCode)}</code></dd>
      </dl>`
    : null;
  const deposits =
    money.deposits.length === 0
      ? html`<p class="muted">${t('money.deposits.none')}</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="${t('money.deposits')}">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">${t('money.deposits.received')}</th>
                <th scope="col" class="num">${t('money.deposits.amount')}</th>
                <th scope="col">${t('money.deposits.depositor')}</th>
                <th scope="col">${t('money.deposits.outcome')}</th>
                <th scope="col">${t('money.deposits.bankTransaction')}</th>
              </tr>
            </thead>
            <tbody>
              ${money.deposits.map((deposit) => depositRow(t, deposit, zone))}
            </tbody>
          </table>
        </div>`;
  return html`${code} ${deposits}`;
}

function voucherRow(t: ConsolePaymentsT, voucher: PaymentVoucher) {
  const kind = Object.hasOwn(VOUCHER_KINDS, voucher.kind) ? t(VOUCHER_KINDS[voucher.kind]) : voucher.kind;
  return html`<tr>
    <td data-label="${t('money.vouchers.kind')}">${kind}</td>
    <td data-label="${t('money.vouchers.value')}" class="num">${formatWon(voucher.faceValue)}</td>
    <td data-label="${t('money.vouchers.pin')}"><code>PIN …${voucher.pinLast4}</code></td>
    <td data-label="${t('money.vouchers.status')}">${badge(t.locale, voucher.status)}</td>
  </tr>`;
}

function vouchersSection(t: ConsolePaymentsT, vouchers: PaymentVoucher[]) {
  if (vouchers.length === 0) return html`<p class="muted">${t('money.vouchers.none')}</p>`;
  return html`<div class="scroll" tabindex="0" role="region" aria-label="${t('money.vouchers')}">
    <table class="stack">
      <thead>
        <tr>
          <th scope="col">${t('money.vouchers.kind')}</th>
          <th scope="col" class="num">${t('money.vouchers.value')}</th>
          <th scope="col">${t('money.vouchers.pin')}</th>
          <th scope="col">${t('money.vouchers.status')}</th>
        </tr>
      </thead>
      <tbody>
        ${vouchers.map((voucher) => voucherRow(t, voucher))}
      </tbody>
    </table>
  </div>`;
}

/** Who decided what, and when: a refund is recorded here, the money itself is moved by a person. */
function resolutionText(t: ConsolePaymentsT, review: PaymentReviewCase, zone: string): SafeHtml {
  const { resolution } = review;
  if (resolution === null) return html`<span class="muted">${t('money.resolution.waiting')}</span>`;
  const when = { by: resolution.resolvedBy, time: timeIn(resolution.resolvedAt, zone) };
  switch (resolution.action) {
    case 'complete':
      return resolution.refundAmount
        ? t.html('money.resolution.completeOwed', { ...when, amount: formatWon(resolution.refundAmount) })
        : t.html('money.resolution.complete', when);
    case 'refund':
      return t.html('money.resolution.refund', {
        ...when,
        amount: formatWon(resolution.refundAmount ?? review.amount),
      });
    case 'reject':
      return t.html('money.resolution.reject', when);
    default:
      return t.html('money.resolution.other', { ...when, action: html`<code>${String(resolution.action)}</code>` });
  }
}

function reviewRow(t: ConsolePaymentsT, review: PaymentReviewCase, zone: string) {
  return html`<tr id="${review.id}">
    <td data-label="${t('money.reviews.opened')}">${timeIn(review.createdAt, zone)}<br /><code>${review.id}</code></td>
    <td data-label="${t('money.reviews.reason')}">${reviewReasonText(t, review.reason)}</td>
    <td data-label="${t('money.reviews.amount')}" class="num">${formatWon(review.amount)}</td>
    <td data-label="${t('money.reviews.status')}">${badge(t.locale, review.status)}</td>
    <td data-label="${t('money.reviews.resolution')}">${resolutionText(t, review, zone)}</td>
  </tr>`;
}

function reviewsSection(t: ConsolePaymentsT, reviews: PaymentReviewCase[], zone: string) {
  if (reviews.length === 0) return html`<p class="muted">${t('money.reviews.none')}</p>`;
  return html`<div class="scroll" tabindex="0" role="region" aria-label="${t('money.reviews')}">
    <table class="stack">
      <thead>
        <tr>
          <th scope="col">${t('money.reviews.opened')}</th>
          <th scope="col">${t('money.reviews.reason')}</th>
          <th scope="col" class="num">${t('money.reviews.amount')}</th>
          <th scope="col">${t('money.reviews.status')}</th>
          <th scope="col">${t('money.reviews.resolution')}</th>
        </tr>
      </thead>
      <tbody>
        ${reviews.map((review) => reviewRow(t, review, zone))}
      </tbody>
    </table>
  </div>`;
}

/** The "Money" card of a payment: its settlement record, bank transfer, vouchers and review cases. */
export function moneyCard(t: ConsolePaymentsT, money: PaymentMoney, zone: string): SafeHtml {
  return html`<section class="card" aria-labelledby="money">
    <h2 id="money">${t('money.title')}</h2>
    <h3>${t('money.settlement')}</h3>
    ${settlementSection(t, money.settlement, money.refundSettlements)}
    <h3>${t('money.transfer')}</h3>
    ${depositsSection(t, money, zone)}
    <h3>${t('money.vouchers')}</h3>
    ${vouchersSection(t, money.vouchers)}
    <h3>${t('money.reviews')}</h3>
    ${reviewsSection(t, money.reviewCases, zone)}
  </section>`;
}
