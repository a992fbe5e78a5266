import { Inject, Injectable } from '@nestjs/common';
import type { SecretsKeyring } from '@payhook/config';
import { SELF_ISSUE_IDENTITY_NUMBER, type CashReceiptRequest } from '@payhook/contracts';
import { testFailureOf, type CashReceiptAsk } from '../../core/ledger';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { maskIdentityNumber, validIdentityNumber } from './identity-number';

/**
 * A sealed number opens for its own payment only: the payment's request and its receipts (which
 * share the buyer) carry it; copied into another payment's row, it does not open.
 */
export const cashReceiptIdentityContext = (paymentId: string) => `cash_receipts.identity_number_sealed:${paymentId}`;

/**
 * The buyer's number at rest: sealed with AES-256-GCM under SECRETS_KEY as refund accounts are,
 * bound to its payment; masked for merchants; opened only for the operator who reports it to the
 * tax office. Never logged.
 */
@Injectable()
export class CashReceiptIdentities {
  readonly keyring: SecretsKeyring;

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    this.keyring = env.secretsKeyring;
  }

  /** A checked request (the DTO's rules) as the ledger keeps it on the payment: sealed, masked, its test outcome. */
  ask(payment: { id: string; livemode: boolean }, request: CashReceiptRequest): CashReceiptAsk {
    const digits = validIdentityNumber(request.type, request.identityNumber);
    if (digits === null) throw new Error('a cash receipt request reached the ledger unchecked');
    return {
      type: request.type,
      identityNumberSealed: this.keyring.seal(digits, cashReceiptIdentityContext(payment.id)),
      identityNumberMasked: maskIdentityNumber(digits),
      testFailure: testFailureOf(payment.livemode, digits),
    };
  }

  /** The whole number, for the operator's queue: a self-issued receipt's is the tax office's own. */
  open(paymentId: string, sealed: string | null): string {
    return sealed === null
      ? SELF_ISSUE_IDENTITY_NUMBER
      : this.keyring.open(sealed, cashReceiptIdentityContext(paymentId));
  }
}
