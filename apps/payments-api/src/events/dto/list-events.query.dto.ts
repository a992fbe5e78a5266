import { EVENT_TYPES } from '@payhook/contracts';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';

export class ListEventsQueryDto {
  @IsOptional()
  @IsIn(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(', ')}` })
  type?: string;

  @IsOptional()
  @IsString()
  @Matches(/^pay_[0-9A-Za-z]{20,64}$/, { message: 'must be a payment id (pay_…)' })
  paymentId?: string;

  @IsOptional()
  @IsString()
  @Matches(/^(100|[1-9][0-9]?)$/, { message: 'must be a whole number from 1 to 100' })
  limit?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,512}$/, { message: 'is not a cursor this API returned' })
  cursor?: string;
}
