import { CASH_RECEIPT_STATUSES, type CashReceiptStatus } from '@payhook/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, Matches } from 'class-validator';
import { IsPrintableText } from '../../../platform/http/validators';
import { PageQueryDto } from '../../../platform/http/page-query.dto';

/** GET /admin/v1/cash-receipts query: the operator's queue, oldest first. */
export class ListAdminCashReceiptsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CASH_RECEIPT_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(CASH_RECEIPT_STATUSES, { message: `must be one of ${CASH_RECEIPT_STATUSES.join(', ')}` })
  status?: CashReceiptStatus;
}

/** POST /admin/v1/cash-receipts/{id}/issue: the tax office issued it under this approval number. */
export class IssueCashReceiptRequestDto {
  @ApiProperty({ pattern: '^[A-Za-z0-9-]{1,20}$', example: '137845192' })
  @IsDefined()
  @Matches(/^[A-Za-z0-9-]{1,20}$/, { message: 'must be 1 to 20 of A-Z a-z 0-9 -' })
  issueNumber!: string;
}

/** POST /admin/v1/cash-receipts/{id}/fail: the tax office refused it. */
export class FailCashReceiptRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'identity_rejected' })
  @IsDefined()
  @IsPrintableText(200)
  reason!: string;
}
