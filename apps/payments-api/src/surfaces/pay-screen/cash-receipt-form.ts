import { CASH_RECEIPT_TYPES, type CashReceiptRequest, type CashReceiptType } from '@payhook/contracts';
import { validIdentityNumber } from '../../money/cash-receipts';

/**
 * What is wrong with a submitted cash receipt form: the type (only a forged form lacks one, the
 * radios always send one), a missing number, or a number the chosen type does not take. `type` is
 * the one chosen, kept so the form comes back as it was sent; the number is never sent back.
 */
export interface CashReceiptFormError {
  type: CashReceiptType | null;
  problem: 'type' | 'missing' | 'invalid';
}

export type CashReceiptFormCheck = { request: CashReceiptRequest } | { error: CashReceiptFormError };

function isCashReceiptType(value: string | undefined): value is CashReceiptType {
  return (CASH_RECEIPT_TYPES as readonly string[]).includes(value ?? '');
}

/** The form's fields as posted (undefined: absent or not one string) checked as the API checks them. */
export function checkCashReceiptForm(
  type: string | undefined,
  identityNumber: string | undefined,
): CashReceiptFormCheck {
  if (!isCashReceiptType(type)) return { error: { type: null, problem: 'type' } };
  if (identityNumber === undefined || identityNumber.trim() === '') return { error: { type, problem: 'missing' } };
  if (validIdentityNumber(type, identityNumber) === null) return { error: { type, problem: 'invalid' } };
  return { request: { type, identityNumber } };
}
