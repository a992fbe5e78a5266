/**
 * The console's Settlements page in English: the list, its filters and their errors, the totals of a
 * sales date. The CSV's columns are not here: the file is a data export, the same in every language.
 * Korean in ko.ts, with the same keys.
 */
export const en = {
  'page.title': 'Settlements',
  'page.intro':
    'Newest sales first; a refund is a record of its own, with negative amounts, on the date it succeeded. Sales and payout dates are calendar days in {salesZone}; times in {zone}.',

  'filters.label': 'Filters',
  'filters.date': 'Sales date',
  'filters.from': 'Or from',
  'filters.to': 'To (inclusive)',
  'filters.show': 'Show',
  'filters.clear': 'Clear',

  'list.label': 'Settlement records',
  'list.salesDate': 'Sales date',
  'list.payoutDate': 'Payout date',
  'list.type': 'Type',
  'list.order': 'Order',
  'list.gross': 'Gross',
  'list.fee': 'Fee',
  'list.vat': 'VAT',
  'list.net': 'Net',
  'list.time': 'Completed or refunded',
  'list.completed': 'Completed',
  'list.refunded': 'Refunded',
  'list.type.payment': 'Payment',
  'list.type.refund': 'Refund',
  'list.total': 'Total of {day} ({count, plural, one {# record} other {# records}})',
  'list.totalAllPages': 'Total of {day} ({count, plural, one {# record} other {# records}}, all pages)',
  'list.emptyDay': 'No {mode, select, live {live} other {test}} settlements on {day}.',
  'list.empty': 'No {mode, select, live {live} other {test}} settlements match.',
  'list.payoutHeld': 'Held until the buyer confirms the purchase (escrow).',
  'list.heldTotal': 'Of which held until buyers confirm ({count, plural, one {# record} other {# records}})',
  'list.download': 'Download CSV',
  'list.chooseDay': 'Choose one sales date to see its totals and download its CSV.',
  'list.pages': 'Pages',
  'list.firstPage': 'First page',
  'list.nextPage': 'Next page',

  'error.dateAndRange': 'Choose one sales date or a range, not both.',
  'error.date': '"Sales date" must be a date such as 2026-11-21.',
  'error.from': '"From" must be a date such as 2026-11-21.',
  'error.to': '"To" must be a date such as 2026-11-21.',
  'error.fromAfterTo': '"From" must not be after "To".',
  'error.badCursor': 'This page link is not valid any more. Start from the first page.',
  'error.exportDate': 'Choose a sales date to download its CSV.',
} as const;

export type SettlementsKey = keyof typeof en;
