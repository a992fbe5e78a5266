import type { PaymentStatus } from '@payhook/contracts';

/** The payment a deposit's code named, as it stands under its row lock. */
export interface MatchCandidate {
  status: PaymentStatus;
  /** expiresAt has passed (the row may still say pending until the sweeper runs). */
  overdue: boolean;
  /** What is left to pay: the amount less vouchers already held for it. */
  outstanding: number;
}

export type MatchDecision = { kind: 'complete' } | { kind: 'review'; reason: string };

/**
 * Exact code and exact amount on a payment that can still be paid completes it; anything else goes to a
 * person. Nothing is guessed: no near-miss code, no tolerance on the amount.
 */
export function matchDeposit(amount: number, codeGiven: boolean, candidate: MatchCandidate | null): MatchDecision {
  if (!codeGiven) return { kind: 'review', reason: 'deposit_code_missing' };
  if (candidate === null) return { kind: 'review', reason: 'deposit_code_unknown' };
  const status = candidate.status === 'pending' && candidate.overdue ? 'expired' : candidate.status;
  if (status !== 'pending') return { kind: 'review', reason: `payment_${status}` };
  if (amount < candidate.outstanding) return { kind: 'review', reason: 'amount_short' };
  if (amount > candidate.outstanding) return { kind: 'review', reason: 'amount_over' };
  return { kind: 'complete' };
}
