import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsInt, IsOptional, Max, Min, ValidateBy, ValidateIf } from 'class-validator';
import { IsPrintableText, isIanaTimeZone } from '../../../platform/http/validators';
import { MAX_FEE_BPS } from '../../../core/ledger';

const FEE_BPS = `must be a whole number of basis points from 0 to ${MAX_FEE_BPS}`;
const DELAY_DAYS = 'must be a whole number of business days from 1 to 30';

/** Optional, but never null: null would reach a NOT NULL column. */
const IsOptionalNotNull = () => ValidateIf((_, value: unknown) => value !== undefined);

/** The settlement terms, shared by creation and PATCH. */
export class SettlementTermsRequestDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_FEE_BPS,
    description: 'the fee in basis points of the gross amount',
  })
  @IsOptionalNotNull()
  @IsInt({ message: FEE_BPS })
  @Min(0, { message: FEE_BPS })
  @Max(MAX_FEE_BPS, { message: FEE_BPS })
  feeBps?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 30,
    description: 'business days from the sales date to the payout',
  })
  @IsOptionalNotNull()
  @IsInt({ message: DELAY_DAYS })
  @Min(1, { message: DELAY_DAYS })
  @Max(30, { message: DELAY_DAYS })
  settlementDelayDays?: number;
}

export class CreateMerchantRequestDto extends SettlementTermsRequestDto {
  @ApiProperty({ maxLength: 200 })
  @IsDefined()
  @IsPrintableText(200)
  name!: string;

  @IsOptional()
  @ValidateBy({
    name: 'isIanaTimeZone',
    validator: { validate: isIanaTimeZone, defaultMessage: () => 'must be an IANA time zone such as Asia/Seoul' },
  })
  @ApiPropertyOptional({ default: 'Asia/Seoul', description: 'an IANA time zone' })
  timeZone?: string;
}

/** PATCH /admin/v1/merchants/{id}: the settlement terms, and whether the merchant must issue cash receipts unasked. */
export class MerchantTermsRequestDto extends SettlementTermsRequestDto {
  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'the merchant is in a business that must issue cash receipts unasked (의무발행업종): a payment of ₩100,000 or ' +
      "more with no receipt asked for gets one to the tax office's own number when it completes",
  })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'must be true or false' })
  cashReceiptRequired?: boolean;
}
