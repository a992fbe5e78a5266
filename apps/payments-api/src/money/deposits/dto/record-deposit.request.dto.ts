import { MAX_AMOUNT } from '@payhook/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, Matches } from 'class-validator';
import { IsPrintableText, IsRecentInstant, IsWholeWon } from '../../../platform/http/validators';

const BANK_TRANSACTION_ID = /^[\x21-\x7e]{1,128}$/;

/** The OpenAPI descriptions shared by the operator's and the test helper's deposit bodies. */
const BANK_TRANSACTION_ID_PROPERTY = {
  pattern: BANK_TRANSACTION_ID.source,
  description: "the bank's own id: a second notification with it answers the first deposit (200)",
};
const DEPOSIT_AMOUNT_PROPERTY = { type: 'integer', minimum: 1, maximum: MAX_AMOUNT, description: 'whole KRW' } as const;
const DEPOSIT_CODE_PROPERTY = { maxLength: 64, description: 'the code the payer typed, as the bank reports it' };
const DEPOSITOR_NAME_PROPERTY = { maxLength: 100 };

/** POST /admin/v1/deposits: one deposit notification from the bank side. */
export class RecordDepositRequestDto {
  @ApiProperty(BANK_TRANSACTION_ID_PROPERTY)
  @IsDefined()
  @Matches(BANK_TRANSACTION_ID, { message: 'must be 1 to 128 printable ASCII characters without spaces' })
  bankTransactionId!: string;

  @ApiProperty(DEPOSIT_AMOUNT_PROPERTY)
  @IsDefined()
  @IsWholeWon(1, MAX_AMOUNT)
  amount!: number;

  @ApiPropertyOptional(DEPOSIT_CODE_PROPERTY)
  @IsOptional()
  @IsPrintableText(64)
  depositCode?: string;

  @ApiProperty(DEPOSITOR_NAME_PROPERTY)
  @IsDefined()
  @IsPrintableText(100)
  depositorName!: string;

  @ApiProperty({ format: 'date-time', description: 'when the bank received it: from 2000 up to a day from now' })
  @IsDefined()
  @IsRecentInstant()
  receivedAt!: string;
}

/** POST /v1/test-helpers/deposits: a simulated deposit into the test feed; only the amount is required. */
export class TestDepositRequestDto {
  @ApiProperty(DEPOSIT_AMOUNT_PROPERTY)
  @IsDefined()
  @IsWholeWon(1, MAX_AMOUNT)
  amount!: number;

  @ApiPropertyOptional(DEPOSIT_CODE_PROPERTY)
  @IsOptional()
  @IsPrintableText(64)
  depositCode?: string;

  @ApiPropertyOptional({ ...DEPOSITOR_NAME_PROPERTY, default: 'TEST DEPOSITOR' })
  @IsOptional()
  @IsPrintableText(100)
  depositorName?: string;

  @ApiPropertyOptional({ ...BANK_TRANSACTION_ID_PROPERTY, description: 'generated when left out' })
  @IsOptional()
  @Matches(BANK_TRANSACTION_ID, { message: 'must be 1 to 128 printable ASCII characters without spaces' })
  bankTransactionId?: string;
}

/** POST /v1/test-helpers/payments/{id}/deposit: a deposit with the payment's own code; amount defaults to what is due. */
export class TestPaymentDepositRequestDto {
  @ApiPropertyOptional({ ...DEPOSIT_AMOUNT_PROPERTY, description: 'whole KRW; what is still due when left out' })
  @IsOptional()
  @IsWholeWon(1, MAX_AMOUNT)
  amount?: number;
}
