import { REFUND_STATUSES, type RefundStatus } from '@payhook/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, Matches } from 'class-validator';
import { IsPrintableText } from '../../http/validators';
import { PageQueryDto } from '../../http/page-query.dto';

const BANK_TRANSACTION_ID = /^[\x21-\x7e]{1,128}$/;

/** GET /admin/v1/refunds query: the operator's queue, oldest first. */
export class ListAdminRefundsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: REFUND_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(REFUND_STATUSES, { message: `must be one of ${REFUND_STATUSES.join(', ')}` })
  status?: RefundStatus;
}

/** POST /admin/v1/refunds/{id}/succeed: the operator sent the money. */
export class SucceedRefundRequestDto {
  @ApiProperty({ pattern: BANK_TRANSACTION_ID.source, description: "the bank's id of the transfer" })
  @IsDefined()
  @Matches(BANK_TRANSACTION_ID, { message: 'must be 1 to 128 printable ASCII characters without spaces' })
  bankTransactionId!: string;
}

/** POST /admin/v1/refunds/{id}/fail: the money could not be sent; the amount is refundable again. */
export class FailRefundRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'account closed' })
  @IsDefined()
  @IsPrintableText(200)
  reason!: string;
}
