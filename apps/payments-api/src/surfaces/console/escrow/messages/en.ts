/**
 * The console's escrow (구매안전서비스) in English: a payment's Escrow card, its shipment form and the
 * form's errors. ICU MessageFormat; times come in formatted. Korean in ko.ts, with the same keys.
 */
export const en = {
  'card.title': 'Escrow',
  'card.status': 'Escrow status',
  'card.carrier': 'Carrier',
  'card.trackingNumber': 'Tracking number',
  'card.shippedAt': 'Shipped',
  'card.autoConfirmAt': 'Confirms by itself',
  'card.confirmedAt': 'Confirmed',
  'card.confirmedBy': '{by, select, auto {automatically: the buyer had not answered by then} other {by the buyer}}',
  'card.rejectedAt': 'Rejected',
  'card.rejectReason': "Buyer's reason",

  'note.unpaid': 'Once the payment is completed, register the shipment here.',
  'note.awaiting':
    'The payout is held until the buyer confirms the purchase. Register the shipment once the goods are on their way: the buyer gets an e-mail with a link to confirm or reject it.',
  'note.shipped':
    'The buyer was e-mailed a link to confirm or reject the purchase. Without an answer, the purchase confirms by itself at the time above; the payout stays held until then.',
  'note.confirmed': 'The purchase is confirmed: the payout is scheduled (see Settlement below).',
  'note.rejected':
    "The buyer rejected the purchase: the payout stays held while payhook's operators review the case. Refunds work as on any completed payment.",

  'form.ship.title': 'Register the shipment',
  'form.correct.title': 'Correct the shipment',
  'form.correct.hint':
    'Changes the carrier and tracking number only: the shipped time and the time it confirms by itself stay. The buyer is not e-mailed again.',
  'form.invalid': 'The shipment was not saved: correct the fields marked below.',
  'form.carrier': 'Carrier',
  'form.trackingNumber': 'Tracking number',
  'form.field.hint': '1 to {max} characters.',
  'form.ship.submit': 'Register shipment',
  'form.correct.submit': 'Save correction',

  'error.missing': '{field, select, carrier {Enter the carrier.} other {Enter the tracking number.}}',
  'error.tooLong': '{field, select, carrier {The carrier} other {The tracking number}} takes at most {max} characters.',
  'error.notPrintable':
    '{field, select, carrier {The carrier} other {The tracking number}} takes printable characters only: no tabs or line breaks.',
  'error.notCompleted': 'Only a completed payment can be shipped.',
  'error.noEscrow': 'This payment was made without escrow: it has no shipment to register.',
  'error.notOpen':
    'This escrow no longer takes a shipment: the buyer confirmed or rejected the purchase (or it confirmed by itself).',
} as const;

export type ConsoleEscrowKey = keyof typeof en;
