import { Body, Controller, Get, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminRoute, BODY_ERRORS } from '../../platform/openapi/api-route.decorator';
import { dataArrayOf, dataOf } from '../../platform/openapi/schema-builders';
import { AdminGuard } from '@payhook/auth';
import type { DataEnvelope } from '@payhook/contracts';
import { publicHolidays, salesDate, type Holiday } from '../../core/ledger';
import { AddHolidayRequestDto } from './dto/add-holiday.request.dto';
import { ListHolidaysQueryDto } from './dto/list-holidays.query.dto';
import { HolidaysRepository } from './holidays.repository';

/**
 * Non-banking days (ADR 0010): Korean public holidays come from the
 * gazette data; an operator adds the one-off days a bank announces. A payment settled after the
 * change gets the new payout date.
 */
@ApiTags('business days')
@Controller('admin/v1/holidays')
@UseGuards(AdminGuard)
export class HolidaysAdminController {
  constructor(private readonly holidays: HolidaysRepository) {}

  @Post()
  @AdminRoute({
    summary: 'Add a one-off non-banking day (or rename one already added)',
    status: 201,
    response: dataOf('Holiday'),
    errors: [...BODY_ERRORS],
  })
  async add(@Body() body: AddHolidayRequestDto): Promise<DataEnvelope<Holiday>> {
    return { data: await this.holidays.add({ date: body.date, name: body.name }) };
  }

  /** A year's public holidays and added days by date; a year without gazette data lists the added ones. */
  @Get()
  @AdminRoute({
    summary: "A year's non-banking days: public holidays from the gazette and the added ones, by date",
    status: 200,
    response: dataArrayOf('Holiday'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  async list(@Query() query: ListHolidaysQueryDto): Promise<DataEnvelope<Holiday[]>> {
    const year = Number(query.year ?? salesDate(new Date()).slice(0, 4));
    const days = [...(publicHolidays(year) ?? []), ...(await this.holidays.inYear(year))];
    return { data: days.sort((a, b) => a.date.localeCompare(b.date)) };
  }
}
