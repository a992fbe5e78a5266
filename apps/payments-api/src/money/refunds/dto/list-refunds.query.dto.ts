import { REFUND_STATUSES, type RefundStatus } from '@payhook/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageQueryDto } from '../../../platform/http/page-query.dto';

/** GET /v1/refunds query. Values stay strings here; the service parses them. */
export class ListRefundsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ pattern: '^pay_', description: "only this payment's refunds" })
  @IsOptional()
  @IsString()
  @Matches(/^pay_[0-9A-Za-z]{20,64}$/, { message: 'must be a payment id' })
  paymentId?: string;

  @ApiPropertyOptional({ enum: REFUND_STATUSES })
  @IsOptional()
  @IsIn(REFUND_STATUSES, { message: `must be one of ${REFUND_STATUSES.join(', ')}` })
  status?: RefundStatus;
}
