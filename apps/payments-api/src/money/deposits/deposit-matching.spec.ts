import { formatDepositCode, newDepositCode, normalizeDepositCode } from './deposit-code';
import { matchDeposit, type MatchCandidate } from './deposit-matching';

const pending: MatchCandidate = { status: 'pending', overdue: false, outstanding: 15_000 };

describe('matchDeposit', () => {
  it('completes only on a known code, a payable payment and the exact amount due', () => {
    expect(matchDeposit(15_000, true, pending)).toEqual({ kind: 'complete' });
  });

  it.each([
    ['no code', 15_000, false, pending, 'deposit_code_missing'],
    ['an unknown code', 15_000, true, null, 'deposit_code_unknown'],
    ['a short amount', 14_999, true, pending, 'amount_short'],
    ['an amount over', 15_001, true, pending, 'amount_over'],
    ['a completed payment (a second deposit)', 15_000, true, { ...pending, status: 'completed' }, 'payment_completed'],
    ['a failed payment', 15_000, true, { ...pending, status: 'failed' }, 'payment_failed'],
    ['a canceled payment', 15_000, true, { ...pending, status: 'canceled' }, 'payment_canceled'],
    ['an expired payment', 15_000, true, { ...pending, status: 'expired' }, 'payment_expired'],
    ['a pending payment past expiresAt', 15_000, true, { ...pending, overdue: true }, 'payment_expired'],
  ] as const)('sends %s to review', (_, amount, codeGiven, candidate, reason) => {
    expect(matchDeposit(amount, codeGiven, candidate)).toEqual({ kind: 'review', reason });
  });

  it('matches what is left after vouchers, not the full amount', () => {
    const partlyPaid = { ...pending, outstanding: 5_000 };
    expect(matchDeposit(5_000, true, partlyPaid)).toEqual({ kind: 'complete' });
    expect(matchDeposit(15_000, true, partlyPaid)).toEqual({ kind: 'review', reason: 'amount_over' });
  });
});

describe('deposit codes', () => {
  it('are 8 characters without look-alikes, and read back whatever the case, spaces or dash', () => {
    const code = newDepositCode();
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(normalizeDepositCode(formatDepositCode(code))).toBe(code);
    expect(normalizeDepositCode(` ${formatDepositCode(code).toLowerCase()} `)).toBe(code);
    expect(normalizeDepositCode(code.slice(0, 4) + ' ' + code.slice(4))).toBe(code);
  });

  it('are not guessed from near misses', () => {
    expect(normalizeDepositCode('ABCD-EFG')).toBeNull();
    expect(normalizeDepositCode('ABCD-EFGH1')).toBeNull();
    expect(normalizeDepositCode('ABCD-EFG0')).toBeNull(); // 0 is never in a code
    expect(normalizeDepositCode('홍길동')).toBeNull();
    expect(normalizeDepositCode(undefined)).toBeNull();
  });
});
