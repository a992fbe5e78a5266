import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { IsPrintableText, IsWholeWon } from '../../../platform/http/validators';

/** POST /v1/test-helpers/payments/{id}/failed-refund: like a refund's body, without an account. May be empty. */
export class FailedTestRefundRequestDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'whole KRW, at most the refundable remainder; omitted: the whole remainder',
  })
  @ValidateIf((_, value: unknown) => value !== undefined)
  @IsWholeWon(1, Number.MAX_SAFE_INTEGER)
  amount?: number;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200, example: 'testing refund.failed' })
  @ValidateIf((_, value: unknown) => value !== undefined)
  @IsPrintableText(200)
  reason?: string;
}
