import { MIN_REFUND_AMOUNT, REFUND_ACCOUNT_FIELD_MAX_CHARS, REFUND_REASON_MAX_CHARS } from '../../../money/refunds';
import {
  initialRefundForm,
  isRefundKey,
  maskedAccountNumber,
  newRefundKey,
  parseRefundForm as parseIn,
  refundFormValues,
  type RefundFormValues,
} from './console-refund-form';
import { consoleRefundsT } from './messages';

/** The form as an English page reads it (the messages are the catalog's). */
const parseRefundForm = (
  values: RefundFormValues,
  rules: { live: boolean; maxAmount?: number; notYetRefunded?: { amount: number; taxFreeAmount: number } },
) => parseIn(values, rules, consoleRefundsT('en'));

const form = (values: Partial<RefundFormValues>): RefundFormValues => ({ ...initialRefundForm(15_000), ...values });
const account = { bank: 'Kookmin', accountNumber: '123-456-7890', holderName: 'Lee Jiwon' };

describe('the console refund form', () => {
  it('reads trimmed fields, and nothing but strings', () => {
    expect(refundFormValues({ amount: ' 5000 ', reason: ['a', 'b'], bank: 3, taxFreeAmount: ' 1,000 ' })).toEqual({
      amount: '5000',
      taxFreeAmount: '1,000',
      reason: '',
      bank: '',
      accountNumber: '',
      holderName: '',
    });
  });

  it('takes whole won as people write them, up to the remainder', () => {
    for (const amount of ['15000', '15,000', '₩15,000', '1']) {
      expect(parseRefundForm(form({ amount }), { live: false, maxAmount: 15_000 })).toMatchObject({
        kind: 'valid',
        request: { amount: Number(amount.replace(/[₩,]/g, '')) },
      });
    }
  });

  it('refuses a missing, malformed, zero or too large amount with a message for the field', () => {
    const errorOf = (amount: string, maxAmount?: number) => {
      const parsed = parseRefundForm(form({ amount }), { live: false, maxAmount });
      return parsed.kind === 'invalid' ? parsed.errors.amount : undefined;
    };
    expect(errorOf('')).toBe('Enter the amount to refund.');
    for (const amount of ['1.5', '-3', '1e3', 'ten', '123456789012']) {
      expect(errorOf(amount)).toBe('Enter the amount in whole won, such as 15000.');
    }
    expect(errorOf('0')).toBe('Enter an amount of at least ₩1.');
    expect(errorOf('15001', 15_000)).toBe('The amount is more than can be refunded: at most ₩15,000 is left.');
    expect(errorOf('1', 0)).toBe('Nothing is left to refund on this payment.');
    // Without a limit the refund service decides (a replayed confirmation must reach it).
    expect(errorOf('15001')).toBeUndefined();
  });

  describe('the optional tax-free part', () => {
    /** ₩10,000 with ₩3,000 tax-free, ₩2,000 of it (all tax-free) refunded: 8,000 left, 1,000 of it tax-free. */
    const notYetRefunded = { amount: 8_000, taxFreeAmount: 1_000 };
    /** `left` null: the form does not know the payment (the confirmation's step). */
    const parsed = (amount: string, taxFreeAmount: string, left: typeof notYetRefunded | null = notYetRefunded) =>
      parseRefundForm(form({ amount, taxFreeAmount }), {
        live: false,
        maxAmount: 8_000,
        ...(left ? { notYetRefunded: left } : {}),
      });
    const errorOf = (amount: string, taxFreeAmount: string, left?: typeof notYetRefunded | null) => {
      const result = parsed(amount, taxFreeAmount, left);
      return result.kind === 'invalid' ? result.errors.taxFreeAmount : undefined;
    };

    it('is left out of the request when empty (the refund takes its share), and read as people write won', () => {
      expect(parsed('4000', '')).toEqual({ kind: 'valid', request: { amount: 4_000 } });
      for (const typed of ['1000', '1,000', '₩1,000']) {
        expect(parsed('4000', typed)).toEqual({ kind: 'valid', request: { amount: 4_000, taxFreeAmount: 1_000 } });
      }
      expect(parsed('4000', '0')).toEqual({ kind: 'valid', request: { amount: 4_000, taxFreeAmount: 0 } });
    });

    it("refuses each of the ledger's rules next to the field, in the form's words", () => {
      for (const typed of ['1.5', '-1', 'ten', '1e3', '123456789012']) {
        expect(errorOf('4000', typed)).toBe('Enter the tax-free part in whole won, such as 3000, or leave it empty.');
      }
      expect(errorOf('500', '501')).toBe('The tax-free part cannot be more than the amount to refund.');
      expect(errorOf('4000', '1001')).toBe(
        "The tax-free part is more than is left: at most ₩1,000 of this payment's tax-free amount is left to refund.",
      );
      // 8,000 with 999 tax-free leaves 7,001 taxable of the 7,000 there is.
      expect(errorOf('8000', '999')).toBe(
        'Enter a tax-free part of at least ₩1,000: at most ₩7,000 of the taxable amount is left to refund.',
      );
      expect(errorOf('8000', '1000')).toBeUndefined();
    });

    it('is checked against the amount alone where the refund service decides the rest, and not at all when the amount is wrong', () => {
      expect(errorOf('500', '501', null)).toBe('The tax-free part cannot be more than the amount to refund.');
      expect(errorOf('4000', '3001', null)).toBeUndefined();
      expect(errorOf('9000', '1001')).toBeUndefined();
      expect(parsed('9000', '1001')).toMatchObject({ kind: 'invalid', errors: { amount: expect.any(String) } });
    });

    it('says the same in Korean', () => {
      const korean = parseIn(
        form({ amount: '8000', taxFreeAmount: '999' }),
        { live: false, notYetRefunded },
        consoleRefundsT('ko'),
      );
      expect(korean).toEqual({
        kind: 'invalid',
        errors: {
          taxFreeAmount: '과세 금액은 최대 ₩7,000까지 환불할 수 있습니다. 면세 금액을 ₩1,000 이상으로 입력하세요.',
        },
      });
    });
  });

  it('keeps a reason of up to 200 printable characters and drops an empty one', () => {
    expect(parseRefundForm(form({ reason: '' }), { live: false })).toEqual({
      kind: 'valid',
      request: { amount: 15_000 },
    });
    expect(parseRefundForm(form({ reason: '환불 요청'.padEnd(200, '.') }), { live: false }).kind).toBe('valid');
    for (const reason of ['x'.repeat(201), 'line\u0000break']) {
      expect(parseRefundForm(form({ reason }), { live: false })).toMatchObject({
        kind: 'invalid',
        errors: { reason: expect.stringContaining('at most 200 characters') },
      });
    }
  });

  it('asks for the refund account in live mode only', () => {
    expect(parseRefundForm(form({ ...account }), { live: false })).toEqual({
      kind: 'valid',
      request: { amount: 15_000 },
    });
    expect(parseRefundForm(form({}), { live: true })).toEqual({
      kind: 'invalid',
      errors: {
        bank: 'Enter the bank: live refunds are paid into this account.',
        accountNumber: 'Enter the account number: live refunds are paid into this account.',
        holderName: 'Enter the holder name: live refunds are paid into this account.',
      },
    });
    expect(parseRefundForm(form({ ...account, bank: 'b'.repeat(65) }), { live: true })).toMatchObject({
      kind: 'invalid',
      errors: { bank: 'The bank must be at most 64 characters.' },
    });
    expect(parseRefundForm(form({ ...account, reason: 'damaged' }), { live: true })).toEqual({
      kind: 'valid',
      request: { amount: 15_000, reason: 'damaged', refundAccount: account },
    });
  });

  it("names the missing account fields in the page's language, each with its own particle", () => {
    expect(parseIn(form({}), { live: true }, consoleRefundsT('ko'))).toEqual({
      kind: 'invalid',
      errors: {
        bank: '은행을 입력하세요. 라이브 환불 금액은 이 계좌로 보내 드립니다.',
        accountNumber: '계좌번호를 입력하세요. 라이브 환불 금액은 이 계좌로 보내 드립니다.',
        holderName: '예금주를 입력하세요. 라이브 환불 금액은 이 계좌로 보내 드립니다.',
      },
    });
  });

  it("refuses what the refund DTO refuses, at the DTO's own limits, in the form's words", () => {
    const parsed = (values: Partial<RefundFormValues>) => parseRefundForm(form(values), { live: true });
    expect(parsed({ ...account, amount: String(MIN_REFUND_AMOUNT - 1) })).toEqual({
      kind: 'invalid',
      errors: { amount: 'Enter an amount of at least ₩1.' },
    });
    expect(parsed({ ...account, reason: 'x'.repeat(REFUND_REASON_MAX_CHARS) }).kind).toBe('valid');
    // The API's "printable" refuses line separators as well as control characters.
    for (const reason of ['x'.repeat(REFUND_REASON_MAX_CHARS + 1), 'line\u2028break']) {
      expect(parsed({ ...account, reason })).toEqual({
        kind: 'invalid',
        errors: { reason: 'The reason must be at most 200 characters, without control characters.' },
      });
    }
    const longHolder = 'h'.repeat(REFUND_ACCOUNT_FIELD_MAX_CHARS + 1);
    expect(parsed({ ...account, holderName: longHolder })).toEqual({
      kind: 'invalid',
      errors: { holderName: 'The holder name must be at most 64 characters.' },
    });
  });

  it('makes a fresh 128-bit idempotency key for each confirmation and recognises only its shape', () => {
    const key = newRefundKey();
    expect(isRefundKey(key)).toBe(true);
    expect(newRefundKey()).not.toBe(key);
    for (const other of [undefined, '', 'console_short', `${key}x`, key.replace('console_', 'api_')]) {
      expect(isRefundKey(other)).toBe(false);
    }
  });

  it('shows only the last 4 characters of an account number', () => {
    expect(maskedAccountNumber('123-456-7890')).toBe('…7890');
    expect(maskedAccountNumber('1234')).toBe('…');
  });
});
