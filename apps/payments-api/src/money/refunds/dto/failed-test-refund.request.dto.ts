import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { IsPrintableText, IsWholeWon } from '../../../platform/http/validators';
import { MIN_REFUND_AMOUNT, REFUND_REASON_MAX_CHARS } from './create-refund.request.dto';

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
}
