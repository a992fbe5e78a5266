import { randomBytes } from 'node:crypto';
import { MAX_AMOUNT } from '@payhook/contracts';
import {
  CreateRefundRequestDto,
  MIN_REFUND_AMOUNT,
  REFUND_ACCOUNT_FIELD_MAX_CHARS,
  REFUND_REASON_MAX_CHARS,
  refundTaxFreeProblem,
  type NotYetRefunded,
} from '../../../money/refunds';
import { formField } from '../../../platform/html/cookies';
import { dtoViolations } from '../../../platform/http/dto-violations';
import { formatWon } from '../../pay-screen/format';
import type { ConsoleRefundsT } from './messages';

/** What the refund form holds, as typed. */
export interface RefundFormValues {
  amount: string;
  /** Optional: empty leaves the refund's tax-free part to its share of what is left. */
  taxFreeAmount: string;
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
  taxFreeAmount?: number;
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
    taxFreeAmount: field('taxFreeAmount'),
    reason: field('reason'),
    bank: field('bank'),
    accountNumber: field('accountNumber'),
    holderName: field('holderName'),
  };
}

/** The form empty but for the amount, which starts at the whole refundable remainder. */
export function initialRefundForm(remainder: number): RefundFormValues {
  return { amount: String(remainder), taxFreeAmount: '', reason: '', bank: '', accountNumber: '', holderName: '' };
}

/** Whole won as people write them: `3,000` and `₩3,000` as well as `3000`. */
const digitsOf = (typed: string) => typed.replace(/^₩/, '').replace(/,/g, '');

/**
 * Why a refund's tax-free part does not fit, in the form's words: the ledger's rules
 * (refundTaxFreeProblem) against `left`, what the payment has not refunded yet. Null when it fits.
 */
export function taxFreeMessage(
  t: ConsoleRefundsT,
  amount: number,
  taxFreeAmount: number,
  left: NotYetRefunded,
): string | null {
  const taxableLeft = left.amount - left.taxFreeAmount;
  switch (refundTaxFreeProblem(amount, taxFreeAmount, left)) {
    case null:
      return null;
    case 'not_whole_won':
      return t('error.taxFreeWholeWon');
    case 'over_amount':
      return t('error.taxFreeOverAmount');
    case 'over_tax_free_left':
      return t('error.taxFreeOverLeft', { left: formatWon(left.taxFreeAmount) });
    case 'over_taxable_left':
      return t('error.taxableOverLeft', { left: formatWon(taxableLeft), min: formatWon(amount - taxableLeft) });
  }
}

/** The same words whether the form or the refund service finds the amount too large. */
export function amountExceededMessage(t: ConsoleRefundsT, remainder: number): string {
  return remainder === 0 ? t('error.nothingLeft') : t('error.amountExceeded', { left: formatWon(remainder) });
}

/**
 * The form's rules, the API's own: the request is checked by the API body's DTO, in the form's words.
 * An amount of whole won up to `maxAmount` (omit it where the refund service decides), an optional
 * tax-free part that fits the refund and `notYetRefunded` (omitted: the refund service decides but
 * for the part's own amount), an optional reason, and in live mode the account the money goes back
 * to. The errors are in `t`'s language.
 */
export function parseRefundForm(
  values: RefundFormValues,
  rules: { live: boolean; maxAmount?: number; notYetRefunded?: NotYetRefunded },
  t: ConsoleRefundsT,
): ParsedRefundForm {
  const digits = digitsOf(values.amount);
  const taxFreeDigits = digitsOf(values.taxFreeAmount);
  const request: RefundRequest = { amount: Number(digits) };
  if (values.taxFreeAmount !== '') request.taxFreeAmount = Number(taxFreeDigits);
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
  if (request.taxFreeAmount !== undefined) {
    if (!AMOUNT.test(taxFreeDigits) || broken.has('taxFreeAmount')) errors.taxFreeAmount = t('error.taxFreeWholeWon');
    // Against the amount only once the amount itself is right; against the payment where the form knows it.
    else if (!errors.amount) {
      const message = rules.notYetRefunded
        ? taxFreeMessage(t, request.amount, request.taxFreeAmount, rules.notYetRefunded)
        : request.taxFreeAmount > request.amount
          ? t('error.taxFreeOverAmount')
          : null;
      if (message) errors.taxFreeAmount = message;
    }
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
