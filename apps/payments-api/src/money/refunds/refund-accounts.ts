import { Inject, Injectable } from '@nestjs/common';
import type { SecretsKeyring } from '@payhook/config';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import type { RefundAccount } from './refund.view';

/** A sealed account opens for its own refund only: copied into another row, it does not. */
export const refundAccountContext = (refundId: string) => `refunds.refund_account_sealed:${refundId}`;

/**
 * The payer's refund account at rest: sealed with AES-256-GCM under SECRETS_KEY exactly as webhook
 * signing secrets are (libs/config sealed-secret.ts), bound to its refund row. Never logged; opened
 * only for the operator who sends the money.
 */
@Injectable()
export class RefundAccounts {
  readonly keyring: SecretsKeyring;

  constructor(@Inject(PaymentsApiEnv) env: PaymentsApiEnv) {
    this.keyring = env.secretsKeyring;
  }

  seal(refundId: string, account: RefundAccount): string {
    const { bank, accountNumber, holderName } = account;
    return this.keyring.seal(JSON.stringify({ bank, accountNumber, holderName }), refundAccountContext(refundId));
  }

  /** The account, under SECRETS_KEY or SECRETS_KEY_PREVIOUS; SealedSecretError when it does not open. */
  open(refundId: string, sealed: string): RefundAccount {
    return JSON.parse(this.keyring.open(sealed, refundAccountContext(refundId))) as RefundAccount;
  }
}
