import { Injectable } from '@nestjs/common';
import { PayhookError } from '@payhook/contracts';
import { effectiveStatus, PaymentsRepository, PaymentTransitionsService, type FinalStatus } from '../../money/payments';
import { CashReceiptsService } from '../../money/cash-receipts';
import { DepositsService } from '../../money/deposits';
import { VoucherRedemptionService, type RedemptionResult } from '../../money/vouchers';
import { checkCashReceiptForm, type CashReceiptFormError } from './cash-receipt-form';
import { returnUrlWith } from './format';
import type { PayScreenAction, PayScreenPayment } from './pay-screen.view';

/** 24 random bytes in base64url, as PaymentsService makes them. */
const SUFFIX_PATTERN = /^[A-Za-z0-9_-]{32}$/;

const ACTION_STATUS: Record<PayScreenAction, FinalStatus> = {
  complete: 'completed',
  fail: 'failed',
  cancel: 'canceled',
};

export type ActionResult = { kind: 'not_found' } | { kind: 'live_mode' } | { kind: 'redirect'; location: string };

export type VoucherSubmission =
  | { kind: 'not_found' }
  | { kind: 'redirect'; location: string }
  | { kind: 'page'; payment: PayScreenPayment; result: RedemptionResult };

export type CashReceiptSubmission =
  | { kind: 'not_found' }
  /** Kept: back to the screen, which shows it. */
  | { kind: 'asked' }
  /** The payment no longer pending: its user goes back to the merchant, as from any stale form. */
  | { kind: 'redirect'; location: string }
  | { kind: 'invalid'; payment: PayScreenPayment; error: CashReceiptFormError };

@Injectable()
export class PayScreenService {
  constructor(
    private readonly payments: PaymentsRepository,
    private readonly transitions: PaymentTransitionsService,
    private readonly deposits: DepositsService,
    private readonly redemption: VoucherRedemptionService,
    private readonly cashReceipts: CashReceiptsService,
  ) {}

  async find(suffix: string): Promise<PayScreenPayment | null> {
    if (!SUFFIX_PATTERN.test(suffix)) return null;
    const payment = await this.payments.findByPaySuffix(suffix);
    if (!payment) return null;
    const status = effectiveStatus(payment);
    const pending = status === 'pending';
    return {
      id: payment.id,
      merchantId: payment.merchantId,
      suffix,
      merchantName: payment.merchantName,
      merchantTimeZone: payment.merchantTimeZone,
      orderId: payment.orderId,
      amount: payment.amount,
      status,
      livemode: payment.livemode,
      expiresAt: payment.expiresAt,
      returnUrl: payment.returnUrl,
      // Only a payment that can still be paid needs its code and its vouchers counted.
      depositCode: payment.depositCode ?? (pending ? await this.deposits.depositCodeFor(payment.id) : null),
      vouchersApplied: pending ? await this.redemption.heldValue(payment.id) : 0,
      cashReceiptAsked: payment.cashReceiptAsked,
    };
  }

  /** Voucher PINs typed on the screen; a payment they complete sends its user back like any other. */
  async submitVouchers(suffix: string, pins: string, client: string): Promise<VoucherSubmission> {
    const payment = await this.find(suffix);
    if (!payment) return { kind: 'not_found' };
    if (payment.status !== 'pending') return { kind: 'redirect', location: returnUrlWith(payment.returnUrl, payment) };
    const result = await this.redemption.redeem(payment.id, pins, client);
    if (result.kind === 'applied' && result.completed) {
      return { kind: 'redirect', location: returnUrlWith(payment.returnUrl, { ...payment, status: 'completed' }) };
    }
    const current = await this.find(suffix);
    if (!current) return { kind: 'not_found' };
    return { kind: 'page', payment: current, result };
  }

  /**
   * The cash receipt form (both modes): a request checked as the API checks one, kept on the pending
   * payment until it completes; a new one replaces it. A wrong one keeps nothing.
   */
  async askCashReceipt(
    suffix: string,
    type: string | undefined,
    identityNumber: string | undefined,
  ): Promise<CashReceiptSubmission> {
    const payment = await this.find(suffix);
    if (!payment) return { kind: 'not_found' };
    if (payment.status !== 'pending') return { kind: 'redirect', location: returnUrlWith(payment.returnUrl, payment) };
    const checked = checkCashReceiptForm(type, identityNumber);
    if ('error' in checked) return { kind: 'invalid', payment, error: checked.error };
    if (await this.cashReceipts.askOnPayScreen(payment, checked.request)) return { kind: 'asked' };
    // Completed, canceled or expired since it was read: show whatever won.
    const current = await this.find(suffix);
    if (!current) return { kind: 'not_found' };
    return { kind: 'redirect', location: returnUrlWith(current.returnUrl, current) };
  }

  /**
   * The test-mode buttons: the same transition as the test helpers (same event, same outbox row).
   * On a payment that has already finished nothing changes; the user is still sent back.
   */
  async act(suffix: string, action: PayScreenAction): Promise<ActionResult> {
    const payment = await this.find(suffix);
    if (!payment) return { kind: 'not_found' };
    // Live payments have no buttons: only a finished one sends its user back.
    if (payment.livemode && payment.status === 'pending') return { kind: 'live_mode' };
    let status = payment.status;
    if (status === 'pending') {
      const scope = { merchantId: payment.merchantId, livemode: false };
      status = await this.transitions.transition(scope, payment.id, ACTION_STATUS[action]).then(
        (moved) => moved.status,
        async (error: unknown) => {
          // Lost a race (another tab, the sweeper): show whatever won.
          if (!(error instanceof PayhookError) || error.code !== 'payment_state_conflict') throw error;
          return (await this.find(suffix))!.status;
        },
      );
    }
    return { kind: 'redirect', location: returnUrlWith(payment.returnUrl, { ...payment, status }) };
  }
}
