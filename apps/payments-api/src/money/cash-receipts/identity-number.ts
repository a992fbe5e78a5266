import type { CashReceiptType } from '@payhook/contracts';

/**
 * The buyer's number on a cash receipt (현금영수증), checked as the tax office takes it: for 소득공제
 * (income deduction) a mobile number (10–11 digits starting 01) or a cash receipt card number
 * (13–19 digits); for 지출증빙 (expense proof) a business registration number (10 digits whose
 * check digit is right) or a card number. Hyphens and spaces are ignored; the number is kept as
 * digits only. Pure: the API, the payment screen's form and the console share it.
 */

/** Longer than any number with its hyphens and spaces: refused before any work on it. */
const MAX_INPUT_CHARS = 40;
const MOBILE = /^01\d{8,9}$/;
const CARD = /^\d{13,19}$/;
const BUSINESS_REGISTRATION = /^\d{10}$/;

/** The rules in words, for messages and the OpenAPI document. */
export const IDENTITY_NUMBER_RULES: Record<CashReceiptType, string> = {
  income_deduction: 'a mobile number (10 or 11 digits starting 01) or a cash receipt card number (13 to 19 digits)',
  expense_proof: 'a business registration number (10 digits) or a cash receipt card number (13 to 19 digits)',
};

/** Digits only, or null when anything but digits, hyphens and spaces is in it. */
export function identityDigits(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > MAX_INPUT_CHARS) return null;
  const digits = input.replace(/[-\s]/g, '');
  return /^\d+$/.test(digits) ? digits : null;
}

/**
 * 사업자등록번호: weights 1 3 7 1 3 7 1 3 5 over the first nine digits, plus ⌊5 × the ninth / 10⌋;
 * the tenth digit is what brings the sum to a multiple of ten.
 */
export function isBusinessRegistrationNumber(digits: string): boolean {
  if (!BUSINESS_REGISTRATION.test(digits)) return false;
  const weights = [1, 3, 7, 1, 3, 7, 1, 3, 5];
  const d = [...digits].map(Number);
  const sum = weights.reduce((total, weight, i) => total + weight * d[i], 0) + Math.floor((d[8] * 5) / 10);
  return (10 - (sum % 10)) % 10 === d[9];
}

/** The number as digits when it is one `type` takes, else null. */
export function validIdentityNumber(type: CashReceiptType, input: unknown): string | null {
  const digits = identityDigits(input);
  if (digits === null) return null;
  if (CARD.test(digits)) return digits;
  if (type === 'income_deduction') return MOBILE.test(digits) ? digits : null;
  return isBusinessRegistrationNumber(digits) ? digits : null;
}

/** All a merchant ever sees of it: every digit but the last four as `*` (`*******5678`). */
export function maskIdentityNumber(digits: string): string {
  return '*'.repeat(Math.max(0, digits.length - 4)) + digits.slice(-4);
}
