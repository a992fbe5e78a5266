/**
 * The console's cash receipts (현금영수증) in English: a payment's Cash receipts card, its issue and
 * cancel receipts. ICU MessageFormat; amounts and times come in formatted. Korean in ko.ts, with the
 * same keys.
 */
export const en = {
  'card.title': 'Cash receipts',
  'card.none': 'No cash receipts.',
  'card.list': 'Cash receipts of this payment, newest first',

  'receipt.heading': '{transaction, select, cancel {Cancellation} other {Issue}} · {amount}',
  'receipt.id': 'Cash receipt',
  'receipt.refund': 'Refund',
  'receipt.type': 'Type',
  'receipt.type.income_deduction': 'Income deduction',
  'receipt.type.expense_proof': 'Expense proof',
  'receipt.identity': "Buyer's number",
  'receipt.selfIssued': 'self-issued',
  'receipt.selfIssued.hint': "Issued unasked, to the tax office's own number: this merchant must issue receipts.",
  'receipt.taxFree': 'Tax-free part',
  'receipt.vat': 'VAT',
  'receipt.supplied': 'Supplied value',
  'receipt.issueNumber': 'Issue number',
  'receipt.waiting': "Waiting for the tax office's answer.",
  'receipt.failure': 'Failure reason',
  'receipt.failure.identity_rejected': "The tax office rejected the buyer's number.",
  'receipt.created': 'Created',
  'receipt.issued': 'Issued',
  'receipt.failed': 'Failed',
} as const;

export type ConsoleCashReceiptsKey = keyof typeof en;
