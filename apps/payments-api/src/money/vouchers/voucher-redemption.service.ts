import { Inject, Injectable } from '@nestjs/common';
import { clientKey } from '@payhook/auth';
import type { PaymentStatus } from '@payhook/contracts';
import { Ledger } from '../../core/ledger';
import { VOUCHER_ISSUER, type VoucherIssuer } from './voucher-issuer';
import { normalizePin, pinDigest, splitPins } from './voucher-pin';
import { PIN_FAILURE_WINDOW_MINUTES, VouchersRepository } from './vouchers.repository';

/** At most this many PINs in one submission, and wrong PINs per payment / per client within the window. */
export const MAX_PINS_PER_SUBMISSION = 5;
export const MAX_PIN_FAILURES_PER_PAYMENT = 10;
export const MAX_PIN_FAILURES_PER_CLIENT = 30;

export interface PinOutcome {
  /** Last four digits only: the page never echoes a whole PIN. */
  pinLast4: string;
  result: 'accepted' | 'invalid' | 'unknown' | 'used';
  faceValue: number | null;
}

export type RedemptionResult =
  | { kind: 'throttled'; retryAfterSeconds: number }
  | { kind: 'too_many_pins' }
  | { kind: 'not_payable'; status: PaymentStatus }
  | { kind: 'applied'; pins: PinOutcome[]; covered: number; outstanding: number; completed: boolean };

/**
 * Applies voucher PINs to a pending payment in one transaction under the payment's row lock. When the held
 * vouchers cover the amount the payment completes; value above the amount opens a review case for its refund.
 */
@Injectable()
export class VoucherRedemptionService {
  constructor(
    private readonly ledger: Ledger,
    @Inject(VOUCHER_ISSUER) private readonly issuer: VoucherIssuer,
  ) {}

  /** Value of the vouchers a payment holds (or redeemed), counted against what the payer still owes. */
  heldValue(paymentId: string): Promise<number> {
    return this.ledger.heldVoucherValue(paymentId);
  }

  async redeem(paymentId: string, pinsText: string, clientAddress: string): Promise<RedemptionResult> {
    const client = clientKey(clientAddress);
    const pins = splitPins(pinsText);
    if (pins.length === 0 || pins.length > MAX_PINS_PER_SUBMISSION) return { kind: 'too_many_pins' };
    return this.ledger.write(async (tx): Promise<RedemptionResult> => {
      const { sql } = tx;
      // Counted under the client's lock and then the payment's, so concurrent guesses queue up behind the
      // count instead of all passing it at once. Every redemption takes the two in the same order.
      await VouchersRepository.lockClient(sql, client);
      const payment = await tx.payments.lockForUpdate(paymentId);
      if (!payment) return { kind: 'not_payable', status: 'expired' };
      if (payment.status !== 'pending' || payment.overdue) {
        return { kind: 'not_payable', status: payment.status === 'pending' ? 'expired' : payment.status };
      }
      const failures = await VouchersRepository.recentFailures(sql, paymentId, client);
      if (failures.payment >= MAX_PIN_FAILURES_PER_PAYMENT || failures.client >= MAX_PIN_FAILURES_PER_CLIENT) {
        return { kind: 'throttled', retryAfterSeconds: PIN_FAILURE_WINDOW_MINUTES * 60 };
      }
      const outcomes: PinOutcome[] = pins.map((text) => ({
        pinLast4: text.replace(/\D/g, '').slice(-4),
        result: 'invalid',
        faceValue: null,
      }));
      // Held in digest order, whatever the order typed: two payments given overlapping PINs lock them in the
      // same order and cannot deadlock.
      const valid = pins
        .map((text, index) => ({ index, pin: normalizePin(text) }))
        .filter((entry): entry is { index: number; pin: string } => entry.pin !== null)
        .sort((a, b) => (pinDigest(a.pin) < pinDigest(b.pin) ? -1 : 1));
      for (const { index, pin } of valid) {
        const hold = await this.issuer.hold(tx, pin, payment);
        outcomes[index] =
          typeof hold === 'string'
            ? { ...outcomes[index], result: hold }
            : { ...outcomes[index], result: 'accepted', faceValue: hold.faceValue };
      }
      const wrong = outcomes.filter((outcome) => outcome.result !== 'accepted').length;
      await VouchersRepository.recordFailures(sql, payment.id, client, wrong);

      const covered = await tx.payments.heldVoucherValue(payment.id);
      if (covered < payment.amount) {
        return { kind: 'applied', pins: outcomes, covered, outstanding: payment.amount - covered, completed: false };
      }
      await tx.payments.move(null, payment.id, 'completed');
      if (covered > payment.amount) {
        await tx.reviewCases.open({
          livemode: payment.livemode,
          source: 'vouchers',
          reason: 'voucher_over_cover',
          amount: covered - payment.amount,
          merchantId: payment.merchantId,
          paymentId: payment.id,
        });
      }
      return { kind: 'applied', pins: outcomes, covered, outstanding: 0, completed: true };
    });
  }
}
