import { randomBytes } from 'node:crypto';
import { MAX_AMOUNT } from '@payhook/contracts';
import {
  CreateRefundRequestDto,
  MIN_REFUND_AMOUNT,
  REFUND_ACCOUNT_FIELD_MAX_CHARS,
  REFUND_REASON_MAX_CHARS,
} from '../../../money/refunds';
import { formField } from '../../../platform/html/cookies';
import { dtoViolations } from '../../../platform/http/dto-violations';
import { formatWon } from '../../pay-screen/format';
import type { ConsoleRefundsT } from './messages';

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

/**
 * Whole won; people write `15,000` or `₩15,000` as often as `15000`. No more digits than the largest
 * payment has: a longer number is a slip of the keyboard, not a refund.
 */
const AMOUNT = new RegExp(`^\\d{1,${String(MAX_AMOUNT).length}}$`);

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
export function amountExceededMessage(t: ConsoleRefundsT, remainder: number): string {
  return remainder === 0 ? t('error.nothingLeft') : t('error.amountExceeded', { left: formatWon(remainder) });
}

/**
 * The form's rules, the API's own: the request is checked by the API body's DTO, in the form's words.
 * An amount of whole won up to `maxAmount` (omit it where the refund service decides), an optional
 * reason, and in live mode the account the money goes back to. The errors are in `t`'s language.
 */
export function parseRefundForm(
  values: RefundFormValues,
  rules: { live: boolean; maxAmount?: number },
  t: ConsoleRefundsT,
): ParsedRefundForm {
  const digits = values.amount.replace(/^₩/, '').replace(/,/g, '');
  const request: RefundRequest = { amount: Number(digits) };
  if (values.reason !== '') request.reason = values.reason;
  if (rules.live) {
    request.refundAccount = { bank: values.bank, accountNumber: values.accountNumber, holderName: values.holderName };
  }
  const broken = dtoViolations(CreateRefundRequestDto, request);
  const errors: RefundFormErrors = {};
  const amountBroken = broken.get('amount');
  if (values.amount === '') errors.amount = t('error.amountMissing');
  else if (!AMOUNT.test(digits)) errors.amount = t('error.wholeWon');
  else if (amountBroken) {
    errors.amount =
      'min' in amountBroken ? t('error.amountMin', { min: formatWon(MIN_REFUND_AMOUNT) }) : t('error.wholeWon');
  } else if (rules.maxAmount !== undefined && request.amount > rules.maxAmount) {
    errors.amount = amountExceededMessage(t, rules.maxAmount);
  }
  if (broken.has('reason')) errors.reason = t('error.reason', { max: REFUND_REASON_MAX_CHARS });
  if (rules.live) {
    for (const field of ACCOUNT_FIELDS) {
      if (values[field] === '') errors[field] = t('error.accountMissing', { field });
      else if (broken.has(`refundAccount.${field}`)) {
        errors[field] = t('error.accountTooLong', { field, max: REFUND_ACCOUNT_FIELD_MAX_CHARS });
      }
    }
  }
  return Object.keys(errors).length > 0 ? { kind: 'invalid', errors } : { kind: 'valid', request };
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
