import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import type { ListEnvelope } from '@payhook/contracts';
import type { Response } from 'express';
import { ExportSettlementsQueryDto, ListSettlementsQueryDto } from './dto/list-settlements.query.dto';
import type { SettlementView } from './settlement.view';
import { sendSettlementsCsv } from './settlements-csv.response';
import { SettlementsService } from './settlements.service';
import { ApiTags } from '@nestjs/swagger';
import { listOf } from '../../platform/openapi/schema-builders';
import { ApiRoute } from '../../platform/openapi/api-route.decorator';

@ApiTags('settlements')
@Controller('v1/settlements')
@UseGuards(ApiKeyGuard)
export class SettlementsController {
  constructor(private readonly settlements: SettlementsService) {}

  @Get()
  @ApiRoute({
    summary: 'Settlement records by sales date (one date, or from/to inclusive), oldest first, keyset-paged',
    status: 200,
    response: listOf('Settlement'),
    errors: ['parameter_invalid', 'parameter_unknown'],
  })
  list(
    @CurrentAuth() auth: AuthContext,
    @Query() query: ListSettlementsQueryDto,
  ): Promise<ListEnvelope<SettlementView>> {
    return this.settlements.list(auth, query);
  }

  /** One sales date as CSV, for the merchant's bookkeeping: streamed, so a day of any size fits. */
  @Get('export')
  @ApiRoute({
    summary: 'One sales date as CSV (a header row, then one row per settlement)',
    status: 200,
    mediaType: 'text/csv',
    response: { type: 'string' },
    errors: ['parameter_invalid', 'parameter_missing', 'parameter_unknown'],
  })
  async export(
    @CurrentAuth() auth: AuthContext,
    @Query() query: ExportSettlementsQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    const batches = this.settlements.dayInBatches(auth, query.date);
    const mode = auth.livemode ? 'live' : 'test';
    await sendSettlementsCsv(response, `payhook-settlements-${query.date}-${mode}.csv`, batches);
  }
}
