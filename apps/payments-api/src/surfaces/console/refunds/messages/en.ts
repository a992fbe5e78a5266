/**
 * The console's refund pages in English: a payment's Refunds card and its form, the form's errors,
 * the confirmation page and the refusals of the refund service. ICU MessageFormat; amounts and
 * times come in formatted. Korean in ko.ts, with the same keys.
 */
export const en = {
  'card.title': 'Refunds',
  'card.none': 'No refunds.',
  'card.list': 'Refunds of this payment, newest first',
  'card.remainder': '{left} of {amount} left to refund',
  'card.remainderCounts': '(succeeded and pending refunds count against it)',
  'refund.id': 'Refund',
  'refund.reason': 'Reason',
  'refund.created': 'Created',
  'refund.succeeded': 'Succeeded',
  'refund.failed': 'Failed',
  'refund.taxFree': 'Tax-free part',
  'refund.vat': 'VAT',
  'refund.supplied': 'Supplied value',

  'history.requested': 'Refund of {amount} requested ({id})',
  'history.succeeded': 'Refund of {amount} succeeded',
  'history.failed': 'Refund of {amount} failed',

  'form.title': 'Refund this payment',
  'form.invalid': 'The refund was not made: correct the fields marked below.',
  'form.amount': 'Amount in won',
  'form.amount.hint': 'Up to {amount}, the part not yet refunded.',
  'form.taxFree': 'Tax-free part in won (optional)',
  'form.taxFree.hint':
    "The part of the refund exempt from VAT: up to {left}, what is left of this payment's tax-free amount. Left empty, the refund takes its share of it.",
  'form.reason': 'Reason (optional)',
  'form.reason.hint': 'Kept with the refund and sent in its webhook; up to {max} characters.',
  'form.account': 'Refund account (required for live refunds)',
  'form.bank': 'Bank',
  'form.accountNumber': 'Account number',
  'form.holderName': 'Account holder name',
  'form.review': 'Review refund…',

  'error.amountMissing': 'Enter the amount to refund.',
  'error.wholeWon': 'Enter the amount in whole won, such as 15000.',
  'error.amountMin': 'Enter an amount of at least {min}.',
  'error.amountExceeded': 'The amount is more than can be refunded: at most {left} is left.',
  'error.nothingLeft': 'Nothing is left to refund on this payment.',
  'error.taxFreeWholeWon': 'Enter the tax-free part in whole won, such as 3000, or leave it empty.',
  'error.taxFreeOverAmount': 'The tax-free part cannot be more than the amount to refund.',
  'error.taxFreeOverLeft':
    "The tax-free part is more than is left: at most {left} of this payment's tax-free amount is left to refund.",
  'error.taxableOverLeft':
    'Enter a tax-free part of at least {min}: at most {left} of the taxable amount is left to refund.',
  'error.taxFreeChanged': 'The tax-free part no longer fits what is left of this payment. Review the refund again.',
  'error.reason': 'The reason must be at most {max} characters, without control characters.',
  'error.accountMissing':
    'Enter the {field, select, bank {bank} accountNumber {account number} other {holder name}}: live refunds are paid into this account.',
  'error.accountTooLong':
    'The {field, select, bank {bank} accountNumber {account number} other {holder name}} must be at most {max} characters.',
  'error.notCompleted': 'Only a completed payment can be refunded.',
  'error.keyReused': 'That confirmation was used for a different refund. Review the refund again.',

  'confirm.title': 'Refund {order}',
  'confirm.back': '← Payment',
  'confirm.heading': 'Refund {amount} of payment {payment} (order {order})?',
  'confirm.refund': 'Refund',
  'confirm.payment': 'Payment',
  'confirm.paymentValue': '{amount}, {left} of it left to refund',
  'confirm.leftAfter': 'Left after this refund',
  'confirm.taxFree': 'Tax-free part',
  'confirm.taxFreeDefault': "{amount}, the refund's share of the tax-free amount left",
  'confirm.reason': 'Reason',
  'confirm.noReason': 'none',
  'confirm.mode': 'Mode',
  'confirm.modeValue': '{mode, select, live {live} other {test}}',
  'confirm.paidInto': 'Paid into',
  'confirm.account': '{bank} account {number} of {holder}',
  'confirm.live':
    "The refund stays pending until payhook has sent {amount} to the account below; the payment's page shows when it has.",
  'confirm.test': 'In test mode the refund succeeds at once, and no money moves.',
  'confirm.submit': 'Confirm refund',
  'confirm.edit': 'Back',
} as const;

export type ConsoleRefundsKey = keyof typeof en;
