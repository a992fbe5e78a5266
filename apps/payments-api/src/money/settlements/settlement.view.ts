import type { PayoutRule } from '../../core/ledger';

/**
 * One settlement record, as merchants read it (API, CSV and console): a completed payment's, or a
 * succeeded refund's with negative amounts.
 */
export interface SettlementView {
  type: 'payment' | 'refund';
  paymentId: string;
  /** The refund of a refund record; null on payment records. */
  refundId: string | null;
  orderId: string;
  livemode: boolean;
  currency: 'KRW';
  grossAmount: number;
  feeBps: number;
  feeAmount: number;
  vatAmount: number;
  netAmount: number;
  /** The date of completedAt in Asia/Seoul, `YYYY-MM-DD`. */
  salesDate: string;
  /** `held` while its payment's escrow waits for the buyer (no payout date yet); else `scheduled`. */
  payoutStatus: PayoutStatus;
  /** The banking day the net amount is paid out, `YYYY-MM-DD`; null while held. */
  payoutDate: string | null;
  /** Which calendar dated it (ADR 0010): Korean public holidays known, or weekdays only; null while held. */
  payoutRule: PayoutRule | null;
  /** The payment's completion, or the refund's success on a refund record. */
  completedAt: string;
}

export const PAYOUT_STATUSES = ['scheduled', 'held'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const SETTLEMENT_CSV_COLUMNS = [
  'payment_id',
  'order_id',
  'sales_date',
  'payout_date',
  'completed_at',
  'currency',
  'gross_amount',
  'fee_bps',
  'fee_amount',
  'vat_amount',
  'net_amount',
  'type',
  'refund_id',
  'payout_status',
] as const;

/** RFC 4180 CSV: this header row, then settlementCsvLines(), every field quoted only when it needs to be. */
export const SETTLEMENT_CSV_HEADER = SETTLEMENT_CSV_COLUMNS.join(',') + '\r\n';

/** The CSV lines of some records, each ending in CRLF: the export writes them a batch at a time. */
export function settlementCsvLines(rows: SettlementView[]): string {
  const lines: string[] = [];
  for (const row of rows) {
    lines.push(
      [
        row.paymentId,
        row.orderId,
        row.salesDate,
        row.payoutDate ?? '',
        row.completedAt,
        row.currency,
        row.grossAmount,
        row.feeBps,
        row.feeAmount,
        row.vatAmount,
        row.netAmount,
        row.type,
        row.refundId ?? '',
        row.payoutStatus,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return lines.map((line) => line + '\r\n').join('');
}

function csvField(value: string | number): string {
  const text = String(value);
  // A leading = + - @ would be a formula to a spreadsheet: quote-and-prefix it (order ids are merchant text).
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
