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
import { feeRate, signedWon } from '../settlements/console-settlements.view';

const REASONS: Readonly<Record<string, string>> = {
  deposit_code_missing: 'Deposit without a code',
  deposit_code_unknown: 'Unknown deposit code',
  amount_short: 'Amount short',
  amount_over: 'Amount over',
  payment_completed: 'Deposit after the payment was paid',
  payment_failed: 'Deposit after the payment had failed',
  payment_canceled: 'Deposit after the payment had been canceled',
  payment_expired: 'Deposit after the payment had expired',
  voucher_over_cover: 'Vouchers worth more than the amount',
};

const VOUCHER_KINDS: Readonly<Record<VoucherKind, string>> = {
  culture: 'Culture gift voucher',
  book: 'Book gift voucher',
};

/** Why a case was opened, in words; a reason this page does not know yet is shown as stored. */
function reviewReasonText(reason: string): string {
  return Object.hasOwn(REASONS, reason) ? REASONS[reason] : reason;
}

function refundRecord(record: RefundSettlementRecord) {
  return html`<h4>Refund <a href="#${record.refundId}"><code>${record.refundId}</code></a></h4>
    <dl>
      <dt>Gross</dt>
      <dd>${signedWon(record.grossAmount)}</dd>
      <dt>Fee</dt>
      <dd>${signedWon(record.feeAmount)}</dd>
      <dt>VAT</dt>
      <dd>${signedWon(record.vatAmount)}</dd>
      <dt>Net</dt>
      <dd>${signedWon(record.netAmount)}</dd>
      <dt>Sales date</dt>
      <dd>${record.salesDate}</dd>
      <dt>Payout date</dt>
      <dd>${record.payoutDate}</dd>
    </dl>`;
}

function settlementSection(settlement: SettlementView | null, refunds: readonly RefundSettlementRecord[]) {
  if (settlement === null) return html`<p class="muted">No settlement record: the payment has not completed.</p>`;
  const net = refunds.reduce((sum, record) => sum + record.netAmount, settlement.netAmount);
  return html`<dl>
      <dt>Gross</dt>
      <dd>${formatWon(settlement.grossAmount)}</dd>
      <dt>Fee</dt>
      <dd>${formatWon(settlement.feeAmount)} <span class="muted">(${feeRate(settlement.feeBps)})</span></dd>
      <dt>VAT</dt>
      <dd>${formatWon(settlement.vatAmount)}</dd>
      <dt>Net</dt>
      <dd>${formatWon(settlement.netAmount)}</dd>
      <dt>Sales date</dt>
      <dd>${settlement.salesDate}</dd>
      <dt>Payout date</dt>
      <dd>${settlement.payoutDate}</dd>
    </dl>
    ${
      refunds.length === 0
        ? null
        : html`${refunds.map(refundRecord)}
            <p><strong>Net after refunds: ${signedWon(net)}</strong></p>`
    }
    <p class="muted">Sales and payout dates are calendar days in ${SALES_TIME_ZONE}.</p>`;
}

function depositRow(deposit: PaymentDeposit, zone: string) {
  return html`<tr>
    <td data-label="Received">${timeIn(deposit.receivedAt, zone)}</td>
    <td data-label="Amount" class="num">${formatWon(deposit.amount)}</td>
    <td data-label="Depositor">${deposit.depositorName}</td>
    <td data-label="Outcome">
      ${badge(session.locale, deposit.outcome)}
      ${deposit.reviewCaseId ? html`<a href="#${deposit.reviewCaseId}">see case</a>` : null}
    </td>
    <td data-label="Bank transaction"><code>${deposit.bankTransactionId}</code></td>
  </tr>`;
}

function depositsSection(money: PaymentMoney, zone: string) {
  const code = money.depositCode
    ? html`<dl>
        <dt>Deposit code</dt>
        <dd><code>${formatDepositCode(money.depositCode)}</code></dd>
      </dl>`
    : null;
  const deposits =
    money.deposits.length === 0
      ? html`<p class="muted">No deposits.</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="Deposits">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col" class="num">Amount</th>
                <th scope="col">Depositor</th>
                <th scope="col">Outcome</th>
                <th scope="col">Bank transaction</th>
              </tr>
            </thead>
            <tbody>
              ${money.deposits.map((deposit) => depositRow(deposit, zone))}
            </tbody>
          </table>
        </div>`;
  return html`${code} ${deposits}`;
}

function voucherRow(voucher: PaymentVoucher) {
  return html`<tr>
    <td data-label="Kind">${VOUCHER_KINDS[voucher.kind] ?? voucher.kind}</td>
    <td data-label="Value" class="num">${formatWon(voucher.faceValue)}</td>
    <td data-label="PIN"><code>PIN …${voucher.pinLast4}</code></td>
    <td data-label="Status">${badge(session.locale, voucher.status)}</td>
  </tr>`;
}

function vouchersSection(vouchers: PaymentVoucher[]) {
  if (vouchers.length === 0) return html`<p class="muted">No vouchers.</p>`;
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Vouchers">
    <table class="stack">
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col" class="num">Value</th>
          <th scope="col">PIN</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        ${vouchers.map(voucherRow)}
      </tbody>
    </table>
  </div>`;
}

/** Who decided what, and when: a refund is recorded here, the money itself is moved by a person. */
function resolutionText(review: PaymentReviewCase, zone: string): SafeHtml {
  const { resolution } = review;
  if (resolution === null) return html`<span class="muted">Waiting for payhook's operators.</span>`;
  const by = html`${resolution.resolvedBy} on ${timeIn(resolution.resolvedAt, zone)}`;
  switch (resolution.action) {
    case 'complete':
      return resolution.refundAmount
        ? html`Completed by ${by}; refund of ${formatWon(resolution.refundAmount)} owed to the payer`
        : html`Completed by ${by}`;
    case 'refund':
      return html`Refund of ${formatWon(resolution.refundAmount ?? review.amount)} recorded by ${by}`;
    case 'reject':
      return html`Rejected by ${by}`;
    default:
      return html`${String(resolution.action)} by ${by}`;
  }
}

function reviewRow(review: PaymentReviewCase, zone: string) {
  return html`<tr id="${review.id}">
    <td data-label="Opened">${timeIn(review.createdAt, zone)}<br /><code>${review.id}</code></td>
    <td data-label="Reason">${reviewReasonText(review.reason)}</td>
    <td data-label="Amount" class="num">${formatWon(review.amount)}</td>
    <td data-label="Status">${badge(session.locale, review.status)}</td>
    <td data-label="Resolution">${resolutionText(review, zone)}</td>
  </tr>`;
}

function reviewsSection(reviews: PaymentReviewCase[], zone: string) {
  if (reviews.length === 0) return html`<p class="muted">No review cases.</p>`;
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Review cases">
    <table class="stack">
      <thead>
        <tr>
          <th scope="col">Opened</th>
          <th scope="col">Reason</th>
          <th scope="col" class="num">Amount</th>
          <th scope="col">Status</th>
          <th scope="col">Resolution</th>
        </tr>
      </thead>
      <tbody>
        ${reviews.map((review) => reviewRow(review, zone))}
      </tbody>
    </table>
  </div>`;
}

/** The "Money" card of a payment: its settlement record, bank transfer, vouchers and review cases. */
export function moneyCard(money: PaymentMoney, zone: string): SafeHtml {
  return html`<section class="card" aria-labelledby="money">
    <h2 id="money">Money</h2>
    <h3>Settlement</h3>
    ${settlementSection(money.settlement, money.refundSettlements)}
    <h3>Bank transfer</h3>
    ${depositsSection(money, zone)}
    <h3>Vouchers</h3>
    ${vouchersSection(money.vouchers)}
    <h3>Review cases</h3>
    ${reviewsSection(money.reviewCases, zone)}
  </section>`;
}
