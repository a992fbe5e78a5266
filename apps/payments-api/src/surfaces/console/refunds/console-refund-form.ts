import { randomBytes } from 'node:crypto';
import { formField } from '../../../platform/html/cookies';
import { formatWon } from '../../pay-screen/format';

/** What the refund form holds, as typed. */
export interface RefundFormValues {
  amount: string;
  reason: string;
  bank: string;
  accountNumber: string;
  holderName: string;
}

export type RefundField = keyof RefundFormValues;
export type RefundFormErrors = Partial<Record<RefundField, string>>;

/** The refund the form asks for, in the shape of the API's body. */
export interface RefundRequest {
  amount: number;
  reason?: string;
  refundAccount?: { bank: string; accountNumber: string; holderName: string };
}

export type ParsedRefundForm =
  { kind: 'valid'; request: RefundRequest } | { kind: 'invalid'; errors: RefundFormErrors };

export const ACCOUNT_FIELDS: readonly RefundField[] = ['bank', 'accountNumber', 'holderName'];
export const REASON_MAX_CHARS = 200;
export const ACCOUNT_FIELD_MAX_CHARS = 64;

const ACCOUNT_LABELS: Record<string, string> = {
  bank: 'bank',
  accountNumber: 'account number',
  holderName: 'holder name',
};
/** No control, format or unassigned character: the API's "printable". */
const PRINTABLE = /^[^\p{C}]+$/u;
/** Whole won; people write `15,000` or `₩15,000` as often as `15000`. */
const AMOUNT = /^\d{1,11}$/;

export function refundFormValues(body: unknown): RefundFormValues {
  const field = (name: RefundField) => (formField(body, name) ?? '').trim();
  return {
    amount: field('amount'),
    reason: field('reason'),
    bank: field('bank'),
    accountNumber: field('accountNumber'),
    holderName: field('holderName'),
  };
}

/** The form empty but for the amount, which starts at the whole refundable remainder. */
export function initialRefundForm(remainder: number): RefundFormValues {
  return { amount: String(remainder), reason: '', bank: '', accountNumber: '', holderName: '' };
}

/** The same words whether the form or the refund service finds the amount too large. */
export function amountExceededMessage(remainder: number): string {
  return remainder === 0
    ? 'Nothing is left to refund on this payment.'
    : `The amount is more than can be refunded: at most ${formatWon(remainder)} is left.`;
}

/**
 * The form's rules, the API's own: an amount of whole won from 1 up to `maxAmount`
 * (omit it where the refund service decides), a reason of up to 200 printable characters, and in
 * live mode the account the money goes back to.
 */
export function parseRefundForm(
  values: RefundFormValues,
  rules: { live: boolean; maxAmount?: number },
): ParsedRefundForm {
  const errors: RefundFormErrors = {};
  const digits = values.amount.replace(/^₩/, '').replace(/,/g, '');
  const amount = Number(digits);
  if (values.amount === '') errors.amount = 'Enter the amount to refund.';
  else if (!AMOUNT.test(digits)) errors.amount = 'Enter the amount in whole won, such as 15000.';
  else if (amount < 1) errors.amount = 'Enter an amount of at least ₩1.';
  else if (rules.maxAmount !== undefined && amount > rules.maxAmount) {
    errors.amount = amountExceededMessage(rules.maxAmount);
  }
  if (values.reason !== '' && (!PRINTABLE.test(values.reason) || [...values.reason].length > REASON_MAX_CHARS)) {
    errors.reason = `The reason must be at most ${REASON_MAX_CHARS} characters, without control characters.`;
  }
  if (rules.live) {
    for (const name of ACCOUNT_FIELDS) {
      const value = values[name];
      if (value === '') errors[name] = `Enter the ${ACCOUNT_LABELS[name]}: live refunds are paid into this account.`;
      else if (!PRINTABLE.test(value) || [...value].length > ACCOUNT_FIELD_MAX_CHARS) {
        errors[name] = `The ${ACCOUNT_LABELS[name]} must be at most ${ACCOUNT_FIELD_MAX_CHARS} characters.`;
      }
    }
  }
  if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };
  const request: RefundRequest = { amount };
  if (values.reason !== '') request.reason = values.reason;
  if (rules.live) {
    request.refundAccount = { bank: values.bank, accountNumber: values.accountNumber, holderName: values.holderName };
  }
  return { kind: 'valid', request };
}

/**
 * The confirmation form's idempotency key: 128 random bits, so pressing Confirm twice (or the browser
 * resending the form) replays the one refund instead of making a second.
 */
export function newRefundKey(): string {
  return `console_${randomBytes(16).toString('base64url')}`;
}

export function isRefundKey(value: string | undefined): value is string {
  return value !== undefined && /^console_[A-Za-z0-9_-]{22}$/.test(value);
}

/** `…1234`: enough of an account number to recognise it on the confirmation page. */
export function maskedAccountNumber(accountNumber: string): string {
  const chars = [...accountNumber];
  return chars.length <= 4 ? '…' : `…${chars.slice(-4).join('')}`;
}
