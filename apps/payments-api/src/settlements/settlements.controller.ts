import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, CurrentAuth, type AuthContext } from '@payhook/auth';
import type { ListEnvelope } from '@payhook/contracts';
import type { Response } from 'express';
import { ExportSettlementsQueryDto, ListSettlementsQueryDto } from './dto/list-settlements.query.dto';
import { settlementsCsv, type SettlementView } from './settlement.view';
import { SettlementsService } from './settlements.service';
import { ApiTags } from '@nestjs/swagger';
import { listOf } from '../openapi/components';
import { ApiRoute } from '../openapi/api-route.decorator';

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

  /** One sales date as CSV, for the merchant's bookkeeping. */
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
    const rows = await this.settlements.day(auth, query.date);
    const mode = auth.livemode ? 'live' : 'test';
    response
      .status(200)
      .type('text/csv; charset=utf-8')
      .attachment(`payhook-settlements-${query.date}-${mode}.csv`)
      .send(settlementsCsv(rows));
  }
}
