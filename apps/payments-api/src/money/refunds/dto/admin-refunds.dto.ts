import { REFUND_STATUSES, type RefundStatus } from '@payhook/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional } from 'class-validator';
import { IsPrintableText } from '../../../platform/http/validators';
import { PageQueryDto } from '../../../platform/http/page-query.dto';

/** GET /admin/v1/refunds query: the operator's queue, oldest first. */
export class ListAdminRefundsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: REFUND_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(REFUND_STATUSES, { message: `must be one of ${REFUND_STATUSES.join(', ')}` })
  status?: RefundStatus;
}

/** POST /admin/v1/refunds/{id}/succeed: the operator sent the money. */
export class SucceedRefundRequestDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 128,
    example: 'KB-20261125-000418',
    description: "the bank's id of the transfer, as the bank prints it (printable Unicode, spaces allowed)",
  })
  @IsDefined()
  @IsPrintableText(128)
  bankTransactionId!: string;
}

/** POST /admin/v1/refunds/{id}/fail: the money could not be sent; the amount is refundable again. */
export class FailRefundRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'account closed' })
  @IsDefined()
  @IsPrintableText(200)
  reason!: string;
}
