import type { LedgerTx } from '../../core/ledger';

import type { VoucherKind } from '@payhook/contracts';

export { VOUCHER_KINDS, type VoucherKind } from '@payhook/contracts';

/** A voucher held for a payment: it is redeemed when the payment completes and released if it does not. */
export interface VoucherHold {
  voucherId: string;
  kind: VoucherKind;
  faceValue: number;
}

/** unknown: no such PIN. used: redeemed already, or held for another payment. */
export type VoucherRefusal = 'unknown' | 'used';

/**
 * Where vouchers come from. The built-in registry (vouchers the operator loads) is the first adapter; an
 * issuer's online API would be another, holding through its API and recording the hold in the same table.
 */
export interface VoucherIssuer {
  /**
   * Holds the voucher for the payment inside the caller's ledger transaction (tx.vouchers), once across concurrent
   * requests. The same PIN again for the same payment returns the same hold, so a resubmitted form changes nothing.
   */
  hold(tx: LedgerTx, pin: string, payment: { id: string; livemode: boolean }): Promise<VoucherHold | VoucherRefusal>;
}

export const VOUCHER_ISSUER = Symbol('VoucherIssuer');
