import { EVENT_TYPES } from '@payhook/contracts';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageQueryDto } from '../../../platform/http/page-query.dto';
import { ApiPropertyOptional } from '@nestjs/swagger';

export class ListEventsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: EVENT_TYPES })
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(', ')}` })
  type?: string;

  @ApiPropertyOptional({ pattern: '^pay_[0-9A-Za-z]{20,64}$' })
  @IsOptional()
  @IsString()
  @Matches(/^pay_[0-9A-Za-z]{20,64}$/, { message: 'must be a payment id (pay_…)' })
  paymentId?: string;
}
