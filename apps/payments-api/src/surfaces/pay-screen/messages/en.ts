/**
 * The payment screen's English: what a shopper reads on /p/{suffix} and its voucher, 404 and 403
 * pages, and what an escrow's buyer reads on /e/{token}. ICU MessageFormat (intl-messageformat);
 * amounts and times come in formatted. Korean beside it in ko.ts, with the same keys and placeholders
 * (messages/catalog.spec.ts holds that).
 */
export const en = {
  'page.testBanner': 'TEST MODE · no real money moves',
  'page.language': 'Language',

  'pay.heading': 'Pay {merchant}',
  'pay.amount': 'Amount to pay',
  'pay.deadline': 'until {time}',
  'pay.deadlineOn': 'until {time} on {date}',
  'pay.vouchersApplied': 'Vouchers applied: {applied}. Left to pay: {due}.',
  'pay.transfer.heading': 'Pay by bank transfer',
  'pay.transfer.instruction': 'Send exactly {amount} and enter the code {code} as the depositor name (or in the memo).',
  'pay.transfer.bank': 'Bank',
  'pay.transfer.account': 'Account number',
  'pay.transfer.holder': 'Account holder',
  'pay.transfer.code': 'Deposit code',
  'pay.transfer.amount': 'Exact amount',
  'pay.transfer.tapToSelect': 'Tap the account number or the code to select it, then copy it into your banking app.',
  'pay.transfer.after':
    'The payment completes as soon as the bank reports it. A different amount, or a transfer without the code, is checked by a person first.',
  'pay.check': 'Check for my payment',
  'pay.check.live': 'Once you have sent the money, check here: as soon as it is confirmed, you go back to {merchant}.',
  'pay.check.test':
    'Paid with a test deposit or a test voucher? Check here: once the payment is complete, you go back to {merchant}.',
  'pay.vouchers.heading': 'Pay with gift vouchers',
  'pay.vouchers.link': 'Enter culture or book gift voucher PINs',
  'pay.details.heading': 'Payment details',
  'pay.details.merchant': 'Merchant',
  'pay.details.order': 'Order',
  'pay.details.status': 'Status',
  'pay.status.pending': 'Waiting for payment',
  'pay.status.completed': 'Paid',
  'pay.status.failed': 'Payment failed',
  'pay.status.canceled': 'Canceled',
  'pay.status.expired': 'Expired',
  'pay.action.complete': 'Complete payment',
  'pay.action.fail': 'Fail payment',
  'pay.action.cancel': 'Cancel',
  'pay.return': 'Return to {merchant}',

  'receipt.heading': 'Cash receipt',
  'receipt.intro': 'Need a cash receipt? Ask for one here: it is issued once the payment completes.',
  'receipt.type': 'What the receipt is for',
  'receipt.type.income_deduction': 'Income deduction (mobile number)',
  'receipt.type.expense_proof': 'Expense proof (business registration number)',
  'receipt.number': 'Mobile number or business registration number',
  'receipt.hint':
    'A mobile number is 10 or 11 digits starting 01, a business registration number 10 digits; a cash receipt card number (13 to 19 digits) works for either. Dashes and spaces are fine.',
  'receipt.submit': 'Ask for a cash receipt',
  'receipt.asked': 'Cash receipt requested: it is issued once the payment completes.',
  'receipt.asked.type': 'For',
  'receipt.asked.number': 'Number',
  'receipt.kind.income_deduction': 'Income deduction',
  'receipt.kind.expense_proof': 'Expense proof',
  'receipt.change': 'Change the request',
  'receipt.update': 'Save the change',
  'receipt.error.type': 'Choose what the receipt is for.',
  'receipt.error.missing': 'Enter the number for the receipt.',
  'receipt.error.income_deduction':
    'Enter a mobile number (10 or 11 digits starting 01) or a cash receipt card number (13 to 19 digits).',
  'receipt.error.expense_proof':
    'This is not a valid business registration number: check its 10 digits (the last one is a check digit), or enter a cash receipt card number (13 to 19 digits).',
  'receipt.errorTitle': 'Error: {title}',

  'vouchers.title': 'Vouchers · {merchant} · payhook',
  'vouchers.heading': 'Pay {merchant} with gift vouchers',
  'vouchers.leftToPay': 'Left to pay',
  'vouchers.alreadyApplied': 'Already applied: {applied} of {total}.',
  'vouchers.pins.label': 'Voucher PINs, one per line (up to {max})',
  'vouchers.pins.format':
    'A PIN is 12 to 20 digits, as printed on the voucher; dashes and spaces are fine. Example: {example}',
  'vouchers.apply': 'Apply vouchers',
  'vouchers.note':
    'Vouchers are held for this payment and used once it is fully paid. If it is not paid before it expires they are released, untouched. Value above the amount is refunded after a check.',
  'vouchers.back': 'Back to the payment',
  'vouchers.pin': 'PIN ending {last4}: {result}',
  'vouchers.pin.accepted': 'applied',
  'vouchers.pin.invalid': 'not a voucher PIN (12 to 20 digits)',
  'vouchers.pin.unknown': 'not recognised',
  'vouchers.pin.used': 'already used',
  'vouchers.throttled': 'Too many wrong PINs. Try again in {minutes, plural, one {# minute} other {# minutes}}.',
  'vouchers.tooManyPins': 'Enter 1 to {max} PINs at a time.',
  'vouchers.notPayable': 'This payment can no longer be paid.',

  'escrow.title': 'Confirm your purchase · {merchant} · payhook',
  'escrow.heading': 'Your order from {merchant}',
  'escrow.amount': 'Amount paid',
  'escrow.intro':
    'Your payment is held in escrow (purchase protection): the seller is paid once you confirm that the goods arrived.',
  'escrow.autoConfirm': 'If you do nothing, the purchase confirms by itself at 00:00 Korea time on {date}.',
  'escrow.confirm.heading': 'Got the goods?',
  'escrow.confirm.note': 'Confirming releases the payment to the seller. It cannot be undone.',
  'escrow.confirm.button': 'Confirm the purchase',
  'escrow.reject.heading': 'Something wrong?',
  'escrow.reject.note':
    'If the goods did not arrive or something is wrong with them, reject the purchase with a reason. The payment is not released to the seller; a person looks into it.',
  'escrow.reject.reason': 'Reason for rejecting',
  'escrow.reject.hint': '1 to {max} characters.',
  'escrow.reject.button': 'Reject the purchase',
  'escrow.reject.error': 'Write a reason of 1 to {max} characters, not only spaces.',
  'escrow.errorTitle': 'Error: {title}',
  'escrow.details.heading': 'Order details',
  'escrow.details.merchant': 'Seller',
  'escrow.details.order': 'Order',
  'escrow.details.carrier': 'Carrier',
  'escrow.details.trackingNumber': 'Tracking number',
  'escrow.details.status': 'Status',
  'escrow.details.autoConfirmAt': 'Confirms by itself',
  'escrow.details.autoConfirmAtValue': '00:00 Korea time, {date}',
  'escrow.status.awaiting_shipment': 'Waiting for shipment',
  'escrow.status.shipped': 'Shipped · waiting for your confirmation',
  'escrow.status.confirmed': 'Purchase confirmed',
  'escrow.status.rejected': 'Purchase rejected',
  'escrow.outcome.confirmed':
    'You confirmed the purchase on {date} at {time} Korea time. The payment goes to the seller.',
  'escrow.outcome.autoConfirmed':
    'The purchase confirmed by itself on {date} at {time} Korea time. The payment goes to the seller.',
  'escrow.outcome.rejected':
    'You rejected the purchase on {date} at {time} Korea time. The payment is not released to the seller; a person looks into it.',
  'escrow.outcome.reason': 'Your reason',
  'escrow.conflict.confirmed': 'This purchase was already confirmed: nothing changed.',
  'escrow.conflict.rejected': 'This purchase was already rejected: nothing changed.',
  'escrow.conflict.other': 'This purchase cannot be confirmed or rejected now: nothing changed.',

  'notFound.heading': 'Payment not found',
  'notFound.body': 'This payment link is not valid. Go back to the shop and start the payment again.',
  'forbidden.heading': 'Not allowed',
  'forbidden.formExpired': 'This form has expired. Open the payment page again.',
  'forbidden.liveComplete': 'Live payments complete when the funds arrive.',
  'forbidden.escrowFormExpired': 'This form has expired. Open the link in your e-mail again.',
} as const;

export type PayScreenKey = keyof typeof en;
