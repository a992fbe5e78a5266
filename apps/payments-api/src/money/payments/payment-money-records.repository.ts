import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import type { MerchantScope } from '@payhook/auth';
import type { ReviewAction, ReviewSource } from '../reviews';
import type { VoucherKind } from '../vouchers';

/** A deposit that paid (or tried to pay) the payment, as the bank reported it. */
export interface PaymentDeposit {
  id: string;
  bankTransactionId: string;
  amount: number;
  depositorName: string;
  receivedAt: Date;
  outcome: 'matched' | 'review';
  reviewCaseId: string | null;
}

/** A voucher held for or redeemed by the payment. Only the PIN's last 4 digits exist to show. */
export interface PaymentVoucher {
  id: string;
  kind: VoucherKind;
  faceValue: number;
  pinLast4: string;
  status: 'held' | 'redeemed';
}

export interface PaymentReviewCase {
  id: string;
  source: ReviewSource;
  reason: string;
  amount: number;
  status: 'open' | 'resolved';
  createdAt: Date;
  resolution: {
    action: ReviewAction;
    resolvedBy: string;
    refundAmount: number | null;
    resolvedAt: Date;
  } | null;
}

/** A succeeded refund's settlement record: negative amounts, on the date the refund succeeded. */
export interface RefundSettlementRecord {
  refundId: string;
  grossAmount: number;
  feeAmount: number;
  vatAmount: number;
  netAmount: number;
  salesDate: string;
  /** `held` while the payment's escrow waits for the buyer, with no payout date yet; else `scheduled`. */
  payoutStatus: 'scheduled' | 'held';
  payoutDate: string | null;
}

export interface PaymentMoneyRecords {
  /** As stored (`ABCDEFGH`); null until the payment screen first gave one. */
  depositCode: string | null;
  /** Oldest first. */
  deposits: PaymentDeposit[];
  /** In the order they were applied. */
  vouchers: PaymentVoucher[];
  /** Oldest first. */
  reviewCases: PaymentReviewCase[];
  /** Oldest first; the payment's own record is the settlements feature's. */
  refundSettlements: RefundSettlementRecord[];
}

interface DepositRow {
  id: string;
  bank_transaction_id: string;
  amount: string;
  depositor_name: string;
  received_at: Date;
  outcome: 'matched' | 'review';
  review_case_id: string | null;
}

interface VoucherRow {
  id: string;
  kind: VoucherKind;
  face_value: string;
  pin_last4: string;
  status: 'held' | 'redeemed';
}

interface RefundSettlementRow {
  refund_id: string;
  gross_amount: string;
  fee_amount: string;
  vat_amount: string;
  net_amount: string;
  sales_date: string;
  payout_status: 'scheduled' | 'held';
  payout_date: string | null;
}

interface ReviewCaseRow {
  id: string;
  source: ReviewSource;
  reason: string;
  amount: string;
  status: 'open' | 'resolved';
  created_at: Date;
  resolution: ReviewAction | null;
  resolved_by: string | null;
  refund_amount: string | null;
  resolved_at: Date | null;
}

/**
 * The rows are reached through the payment, and the payment only within the scope ($2 merchant, $3 mode):
 * deposits carry no merchant, and a case opened for an unknown code has none until it is resolved.
 */
const IN_SCOPE = `p.id = $1 AND p.merchant_id = $2 AND p.livemode = $3`;

/** How the console's payment page shows the money behind one payment: one indexed query per table. */
@Injectable()
export class PaymentMoneyRecordsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async forPayment(scope: MerchantScope, paymentId: string): Promise<PaymentMoneyRecords> {
    const params = [paymentId, scope.merchantId, scope.livemode];
    const [code, deposits, vouchers, reviewCases, refundSettlements] = await Promise.all([
      sqlRows<{ deposit_code: string | null }>(
        this.db,
        `SELECT p.deposit_code FROM payments p WHERE ${IN_SCOPE}`,
        params,
      ),
      sqlRows<DepositRow>(
        this.db,
        `SELECT d.id, d.bank_transaction_id, d.amount, d.depositor_name, d.received_at, d.outcome, d.review_case_id
           FROM deposits d JOIN payments p ON p.id = d.payment_id
          WHERE d.payment_id = $1 AND d.livemode = $3 AND ${IN_SCOPE}
          ORDER BY d.received_at, d.id`,
        params,
      ),
      // Never the PIN's hash: the last 4 digits are all the console shows.
      sqlRows<VoucherRow>(
        this.db,
        `SELECT v.id, v.kind, v.face_value, v.pin_last4, v.status
           FROM vouchers v JOIN payments p ON p.id = v.payment_id
          WHERE v.payment_id = $1 AND v.livemode = $3 AND ${IN_SCOPE}
          ORDER BY v.held_at, v.id`,
        params,
      ),
      sqlRows<ReviewCaseRow>(
        this.db,
        `SELECT r.id, r.source, r.reason, r.amount, r.status, r.created_at, r.resolution, r.resolved_by,
                r.refund_amount, r.resolved_at
           FROM review_cases r JOIN payments p ON p.id = r.payment_id
          WHERE r.payment_id = $1 AND r.livemode = $3 AND (r.merchant_id IS NULL OR r.merchant_id = $2)
            AND ${IN_SCOPE}
          ORDER BY r.created_at, r.id`,
        params,
      ),
      sqlRows<RefundSettlementRow>(
        this.db,
        `SELECT s.refund_id, s.gross_amount, s.fee_amount, s.vat_amount, s.net_amount,
                to_char(s.sales_date, 'YYYY-MM-DD') AS sales_date, s.payout_status,
                to_char(s.payout_date, 'YYYY-MM-DD') AS payout_date
           FROM settlements s JOIN payments p ON p.id = s.payment_id
          WHERE s.payment_id = $1 AND s.type = 'refund' AND s.merchant_id = $2 AND s.livemode = $3 AND ${IN_SCOPE}
          ORDER BY s.completed_at, s.refund_id`,
        params,
      ),
    ]);
    return {
      depositCode: code[0]?.deposit_code ?? null,
      deposits: deposits.map((row) => ({
        id: row.id,
        bankTransactionId: row.bank_transaction_id,
        amount: Number(row.amount),
        depositorName: row.depositor_name,
        receivedAt: row.received_at,
        outcome: row.outcome,
        reviewCaseId: row.review_case_id,
      })),
      vouchers: vouchers.map((row) => ({
        id: row.id,
        kind: row.kind,
        faceValue: Number(row.face_value),
        pinLast4: row.pin_last4,
        status: row.status,
      })),
      reviewCases: reviewCases.map((row) => ({
        id: row.id,
        source: row.source,
        reason: row.reason,
        amount: Number(row.amount),
        status: row.status,
        createdAt: row.created_at,
        resolution: row.resolution
          ? {
              action: row.resolution,
              resolvedBy: row.resolved_by!,
              refundAmount: row.refund_amount === null ? null : Number(row.refund_amount),
              resolvedAt: row.resolved_at!,
            }
          : null,
      })),
      refundSettlements: refundSettlements.map((row) => ({
        refundId: row.refund_id,
        grossAmount: Number(row.gross_amount),
        feeAmount: Number(row.fee_amount),
        vatAmount: Number(row.vat_amount),
        netAmount: Number(row.net_amount),
        salesDate: row.sales_date,
        payoutStatus: row.payout_status,
        payoutDate: row.payout_date,
      })),
    };
  }
}
