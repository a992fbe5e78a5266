/** Kinds of gift voucher the registry takes (operator API `POST /admin/v1/vouchers`). */
export type VoucherKind = 'culture' | 'book';
export const VOUCHER_KINDS: readonly VoucherKind[] = ['culture', 'book'];

/** How the operator resolves a review case (`POST /admin/v1/reviews/{id}/resolve`). */
export type ReviewAction = 'complete' | 'reject' | 'refund';
export const REVIEW_ACTIONS: readonly ReviewAction[] = ['complete', 'reject', 'refund'];

/**
 * The highest fee rate a merchant's terms may set (`PATCH /admin/v1/merchants/{id}`), 50%: with VAT
 * on top the deductions stay below the gross amount, so a net payout is never negative.
 */
export const MAX_FEE_BPS = 5_000;
