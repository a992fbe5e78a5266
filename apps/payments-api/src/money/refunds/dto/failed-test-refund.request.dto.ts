import { ApiPropertyOptional } from '@nestjs/swagger';
import type { Metadata } from '@payhook/contracts';
import { ValidateIf } from 'class-validator';
import { IsMetadata } from '../../../platform/http/metadata';
import { IsPrintableText, IsWholeWon } from '../../../platform/http/validators';
import {
  IsOmittable,
  MIN_REFUND_AMOUNT,
  REFUND_METADATA_PROPERTY,
  REFUND_REASON_MAX_CHARS,
  REFUND_TAX_FREE_PROPERTY,
} from './create-refund.request.dto';

/** POST /v1/test-helpers/payments/{id}/failed-refund: like a refund's body, without an account. May be empty. */
export class FailedTestRefundRequestDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_REFUND_AMOUNT,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'whole KRW, at most the refundable remainder; omitted: the whole remainder',
  })
  @ValidateIf((_, value: unknown) => value !== undefined)
  @IsWholeWon(MIN_REFUND_AMOUNT, Number.MAX_SAFE_INTEGER)
  amount?: number;

  @ApiPropertyOptional({ minLength: 1, maxLength: REFUND_REASON_MAX_CHARS, example: 'testing refund.failed' })
  @ValidateIf((_, value: unknown) => value !== undefined)
  @IsPrintableText(REFUND_REASON_MAX_CHARS)
  reason?: string;

  @ApiPropertyOptional(REFUND_TAX_FREE_PROPERTY)
  @IsOmittable()
  @IsWholeWon(0, Number.MAX_SAFE_INTEGER)
  taxFreeAmount?: number;

  @ApiPropertyOptional(REFUND_METADATA_PROPERTY)
  @IsOmittable()
  @IsMetadata()
  metadata?: Metadata;
}
