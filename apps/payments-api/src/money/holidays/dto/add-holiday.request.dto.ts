import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, ValidateBy } from 'class-validator';
import { IsPrintableText } from '../../../platform/http/validators';
import { isCalendarDay } from '../../../core/ledger';

/** POST /admin/v1/holidays: a one-off non-banking day. */
export class AddHolidayRequestDto {
  @IsDefined()
  @ValidateBy({
    name: 'isCalendarDay',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isCalendarDay(value),
      defaultMessage: () => 'must be a calendar date such as 2026-10-02 (YYYY-MM-DD, 1970 to 9998)',
    },
  })
  @ApiProperty({ format: 'date', example: '2026-10-02' })
  date!: string;

  @ApiProperty({ maxLength: 100, example: 'Temporary holiday' })
  @IsDefined()
  @IsPrintableText(100)
  name!: string;
}
