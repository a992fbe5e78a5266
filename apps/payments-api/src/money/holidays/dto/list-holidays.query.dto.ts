import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { isCalendarDay } from '../../../core/ledger';

/** GET /admin/v1/holidays?year=YYYY */
export class ListHolidaysQueryDto {
  @ValidateBy({
    name: 'isYear',
    validator: {
      validate: (value: unknown) =>
        value === undefined || (typeof value === 'string' && /^\d{4}$/.test(value) && isCalendarDay(`${value}-01-01`)),
      defaultMessage: () => 'must be a year such as 2026 (1970 to 9998)',
    },
  })
  @ApiPropertyOptional({ pattern: '^[0-9]{4}$', description: 'default: this year in Asia/Seoul' })
  year?: string;
}
