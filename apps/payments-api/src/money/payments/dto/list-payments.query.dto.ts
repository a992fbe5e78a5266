import { IsOptional, IsString, Matches } from 'class-validator';
import { CUSTOMER_ID_MAX_CHARS, ORDER_ID_PATTERN, ORDER_ID_RULE } from './create-payment.request.dto';
import { IsPrintableText } from '../../../platform/http/validators';
import { PageQueryDto } from '../../../platform/http/page-query.dto';
import { ApiPropertyOptional } from '@nestjs/swagger';

/** ISO 8601 date or date-time; a date-time needs a zone so that it names one instant. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** GET /v1/payments query. Values stay strings here; the service parses them. */
export class ListPaymentsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'one status or a comma list: pending, completed, failed, canceled, expired' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z]+(,[a-z]+)*$/, { message: 'must be one or more of pending, completed, failed, canceled, expired' })
  status?: string;

  @ApiPropertyOptional({ pattern: ORDER_ID_PATTERN.source })
  @IsOptional()
  @IsString()
  @Matches(ORDER_ID_PATTERN, { message: `must be ${ORDER_ID_RULE}` })
  orderId?: string;

  @ApiPropertyOptional({ maxLength: CUSTOMER_ID_MAX_CHARS })
  @IsOptional()
  @IsString()
  @IsPrintableText(CUSTOMER_ID_MAX_CHARS)
  customerId?: string;

  @ApiPropertyOptional({ description: 'inclusive; ISO 8601 date or date-time with a zone' })
  @IsOptional()
  @IsString()
  @Matches(ISO_8601, { message: 'must be an ISO 8601 date or date-time with a zone' })
  createdFrom?: string;

  @ApiPropertyOptional({ description: 'exclusive; ISO 8601 date or date-time with a zone' })
  @IsOptional()
  @IsString()
  @Matches(ISO_8601, { message: 'must be an ISO 8601 date or date-time with a zone' })
  createdTo?: string;
}
