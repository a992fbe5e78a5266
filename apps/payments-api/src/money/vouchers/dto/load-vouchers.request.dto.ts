import { MAX_AMOUNT } from '@payhook/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsOptional,
  Matches,
  IsObject,
  ValidateNested,
} from 'class-validator';
import { IsWholeWon } from '../../../platform/http/validators';
import { VOUCHER_KINDS, type VoucherKind } from '../voucher-issuer';

const KIND = 'must be culture or book';

export class VoucherRequestDto {
  @ApiProperty({ example: '1234-5678-9012-3456', description: '12 to 20 digits; dashes and spaces allowed' })
  @IsDefined()
  @Matches(/^[0-9][0-9 -]{10,38}[0-9]$/, { message: 'must be 12 to 20 digits (dashes and spaces allowed)' })
  pin!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_AMOUNT, description: 'whole KRW' })
  @IsDefined()
  @IsWholeWon(1, MAX_AMOUNT)
  faceValue!: number;

  @ApiProperty({ enum: VOUCHER_KINDS })
  @IsDefined()
  @IsIn(VOUCHER_KINDS, { message: KIND })
  kind!: VoucherKind;
}

/** POST /admin/v1/vouchers: the operator loads issued vouchers into the built-in registry. */
export class LoadVouchersRequestDto {
  /** Live vouchers by default; false loads test-mode vouchers. */
  @ApiPropertyOptional({ default: true, description: 'false loads test-mode vouchers' })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  livemode?: boolean;

  @IsDefined()
  @IsArray({ message: 'must be a list of {pin, faceValue, kind}' })
  @ArrayMinSize(1, { message: 'must hold 1 to 1000 vouchers' })
  @ArrayMaxSize(1000, { message: 'must hold 1 to 1000 vouchers' })
  // ValidateNested accepts a nested array as well as an object: `[[]]` reached the handler (a 500).
  @ApiProperty({ type: () => [VoucherRequestDto], minItems: 1, maxItems: 1000 })
  @IsObject({ each: true, message: 'must be a list of {pin, faceValue, kind}' })
  @ValidateNested({ each: true })
  @Type(() => VoucherRequestDto)
  vouchers!: VoucherRequestDto[];
}

/** POST /v1/test-helpers/vouchers: a test voucher with a fresh PIN. */
export class IssueTestVoucherRequestDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_AMOUNT, description: 'whole KRW' })
  @IsDefined()
  @IsWholeWon(1, MAX_AMOUNT)
  faceValue!: number;

  @ApiPropertyOptional({ enum: VOUCHER_KINDS, default: 'culture' })
  @IsOptional()
  @IsIn(VOUCHER_KINDS, { message: KIND })
  kind?: VoucherKind;
}
