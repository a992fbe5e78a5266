import { IsDefined, IsOptional, IsString, Matches } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQueryDto } from '../../../platform/http/page-query.dto';

export const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_MESSAGE = 'must be a date as YYYY-MM-DD';

/** GET /v1/settlements: one sales date, or an inclusive range of them; values are checked again by the service. */
export class ListSettlementsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ format: 'date', description: 'one sales date' })
  @IsOptional()
  @IsString()
  @Matches(CALENDAR_DATE, { message: DATE_MESSAGE })
  date?: string;

  @ApiPropertyOptional({ format: 'date', description: 'first sales date, inclusive' })
  @IsOptional()
  @IsString()
  @Matches(CALENDAR_DATE, { message: DATE_MESSAGE })
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'last sales date, inclusive' })
  @IsOptional()
  @IsString()
  @Matches(CALENDAR_DATE, { message: DATE_MESSAGE })
  to?: string;
}

/** GET /v1/settlements/export: the daily CSV. */
export class ExportSettlementsQueryDto {
  @ApiProperty({ format: 'date', description: 'the sales date' })
  @IsDefined()
  @IsString({ message: DATE_MESSAGE })
  @Matches(CALENDAR_DATE, { message: DATE_MESSAGE })
  date!: string;
}
