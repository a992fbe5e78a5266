// The ledger's public face (ADR 0014): everything outside src/core/ledger/ imports from here, never a file
// inside. Features write money and state through Ledger.write and the LedgerTx it hands them.
export { Ledger } from './ledger';
export { LedgerModule } from './ledger.module';
export type { LedgerTx } from './ledger-tx';
export type { HoldRefusal, RefundAsk } from './refund-writes';
// A refund's amount and tax-free part as decided under its payment's row lock, and the tax-free rules
// the API's and the console's messages name (issue 50).
export { decideRefund, type RefundablePayment, type RefundWanted } from './refund-writes';
export {
  defaultRefundTaxFree,
  refundTaxFreeProblem,
  type NotYetRefunded,
  type RefundTaxFreeProblem,
} from './tax-breakdown';
export type { PaymentOutcome } from './moves-table';
export type { NewPayment } from './payment-creation';
export type { DepositFeed, DepositOutcome, NewDeposit } from './deposit-writes';
export type { NewReviewCase, Resolution, ReviewSource } from './review-case-writes';
// The payments feature's reads select and map payments rows as the ledger's writes return them.
export {
  PAYMENT_COLUMNS,
  effectiveStatus,
  toPaymentRecord,
  type PaymentRecord,
  type PaymentRow,
} from './payment-record';
// The refunds feature's reads select and map refunds rows as the ledger's writes return them.
export { REFUND_COLUMNS, toRefundRecord, type RefundRecord, type RefundRow } from './refund-record';
// What a refund may still take, as every guard of the ledger counts it.
export { refundableRemainder } from './refundable-remainder';
// The settlement arithmetic and the payout calendar the settlement writer uses, pure (no database, no
// Nest): settlements, holidays, the console and the API's validation read the same rules.
export { MAX_FEE_BPS, SALES_TIME_ZONE, isCalendarDay, salesDate } from './settlement-calculation';
export { publicHolidays, type Holiday, type PayoutRule } from './business-days';
// A payment's VAT split (부가세), pure: the payment reads and the console show it.
export { paymentBreakdown, type TaxBreakdown } from './tax-breakdown';
// Cash receipts (현금영수증): what the API keeps of a request, the reads' columns and the view every
// merchant-facing surface shows (the buyer's number masked).
export { testFailureOf, type CashReceiptAsk, type CashReceiptRefusal } from './cash-receipt-writes';
export {
  CASH_RECEIPT_COLUMNS,
  toCashReceiptRecord,
  toCashReceiptView,
  type CashReceiptRecord,
  type CashReceiptRow,
} from './cash-receipt-record';
// Escrow (구매안전서비스): the shipment's refusals, a buyer's target, and the auto-confirm calendar.
export type { EscrowTarget, Shipment, Shipped, ShipmentRefusal } from './escrow-writes';
export { escrowAutoConfirmAt } from './escrow-calendar';
export type { EscrowRecord } from './payment-record';
