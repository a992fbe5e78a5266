import { MAX_AMOUNT } from '@payhook/contracts';
import { IsDefined, IsOptional, Matches } from 'class-validator';
import { IsPrintableText, IsRecentInstant, IsWholeWon } from '../../http/validators';

const BANK_TRANSACTION_ID = /^[\x21-\x7e]{1,128}$/;

/** POST /admin/v1/deposits: one deposit notification from the bank side. */
export class RecordDepositRequestDto {
  @IsDefined()
  @Matches(BANK_TRANSACTION_ID, { message: 'must be 1 to 128 printable ASCII characters without spaces' })
  bankTransactionId!: string;

  @IsDefined()
  @IsWholeWon(1, MAX_AMOUNT)
  amount!: number;

  @IsOptional()
  @IsPrintableText(64)
  depositCode?: string;

  @IsDefined()
  @IsPrintableText(100)
  depositorName!: string;

  @IsDefined()
  @IsRecentInstant()
  receivedAt!: string;
}

/** POST /v1/test-helpers/deposits: a simulated deposit into the test feed; only the amount is required. */
export class TestDepositRequestDto {
  @IsDefined()
  @IsWholeWon(1, MAX_AMOUNT)
  amount!: number;

  @IsOptional()
  @IsPrintableText(64)
  depositCode?: string;

  @IsOptional()
  @IsPrintableText(100)
  depositorName?: string;

  @IsOptional()
  @Matches(BANK_TRANSACTION_ID, { message: 'must be 1 to 128 printable ASCII characters without spaces' })
  bankTransactionId?: string;
}

/** POST /v1/test-helpers/payments/{id}/deposit: a deposit with the payment's own code; amount defaults to what is due. */
export class TestPaymentDepositRequestDto {
  @IsOptional()
  @IsWholeWon(1, MAX_AMOUNT)
  amount?: number;
}
