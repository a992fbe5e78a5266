import { MAX_AMOUNT } from '@payhook/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { VOUCHER_KINDS, type VoucherKind } from '../voucher-issuer';

const FACE_VALUE = `must be a whole number of won from 1 to ${MAX_AMOUNT}`;
const KIND = 'must be culture or book';

export class VoucherRequestDto {
  @IsDefined()
  @Matches(/^[0-9][0-9 -]{10,38}[0-9]$/, { message: 'must be 12 to 20 digits (dashes and spaces allowed)' })
  pin!: string;

  @IsDefined()
  @IsInt({ message: FACE_VALUE })
  @Min(1, { message: FACE_VALUE })
  @Max(MAX_AMOUNT, { message: FACE_VALUE })
  faceValue!: number;

  @IsDefined()
  @IsIn(VOUCHER_KINDS, { message: KIND })
  kind!: VoucherKind;
}

/** POST /admin/v1/vouchers: the operator loads issued vouchers into the built-in registry. */
export class LoadVouchersRequestDto {
  /** Live vouchers by default; false loads test-mode vouchers. */
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  livemode?: boolean;

  @IsDefined()
  @IsArray({ message: 'must be a list of {pin, faceValue, kind}' })
  @ArrayMinSize(1, { message: 'must hold 1 to 1000 vouchers' })
  @ArrayMaxSize(1000, { message: 'must hold 1 to 1000 vouchers' })
  @ValidateNested({ each: true })
  @Type(() => VoucherRequestDto)
  vouchers!: VoucherRequestDto[];
}

/** POST /v1/test-helpers/vouchers: a test voucher with a fresh PIN. */
export class IssueTestVoucherRequestDto {
  @IsDefined()
  @IsInt({ message: FACE_VALUE })
  @Min(1, { message: FACE_VALUE })
  @Max(MAX_AMOUNT, { message: FACE_VALUE })
  faceValue!: number;

  @IsOptional()
  @IsIn(VOUCHER_KINDS, { message: KIND })
  kind?: VoucherKind;
}
