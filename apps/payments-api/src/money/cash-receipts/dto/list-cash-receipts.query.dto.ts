import { CASH_RECEIPT_STATUSES, type CashReceiptStatus } from '@payhook/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageQueryDto } from '../../../platform/http/page-query.dto';

/** GET /v1/cash-receipts query. */
export class ListCashReceiptsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ pattern: '^pay_', description: "only this payment's receipts" })
  @IsOptional()
  @IsString()
  @Matches(/^pay_[0-9A-Za-z]{20,64}$/, { message: 'must be a payment id' })
  paymentId?: string;

  @ApiPropertyOptional({ enum: CASH_RECEIPT_STATUSES })
  @IsOptional()
  @IsIn(CASH_RECEIPT_STATUSES, { message: `must be one of ${CASH_RECEIPT_STATUSES.join(', ')}` })
  status?: CashReceiptStatus;
}
