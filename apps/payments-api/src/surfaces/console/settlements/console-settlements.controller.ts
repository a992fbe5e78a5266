import { Get, Query, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Response } from 'express';
import { sendPage } from '../../../platform/html/html-response';
import { sendSettlementsCsv } from '../../../money/settlements';
import { modeOf, scopeOf, type ConsoleMode, type ConsoleSession } from '../shared/console-session';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { NO_SETTLEMENT_FILTERS, parseExportDate, parseSettlementFilters } from './console-settlement-filters';
import { ConsoleSettlementsService } from './console-settlements.service';
import { renderSettlementsList, type SettlementsListModel } from './console-settlements.view';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';

/** Settlement records of the session's merchant in one mode: the list by sales date, and one date as CSV. */
@ConsoleController('console/settlements')
@UseGuards(ConsoleSessionGuard)
export class ConsoleSettlementsController {
  constructor(private readonly settlements: ConsoleSettlementsService) {}

  @Get()
  async list(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query() query: Record<string, unknown>,
    @Res() response: Response,
  ): Promise<void> {
    const mode = modeOf(query.mode, session.merchant);
    const filters = parseSettlementFilters(query);
    const result = filters.error
      ? ({ kind: 'invalid', error: filters.error } as const)
      : await this.settlements.list(scopeOf(session.merchant, mode), filters.query, filters.day);
    render(response, result.kind === 'page' ? 200 : 400, {
      session,
      mode,
      values: filters.values,
      day: filters.day,
      page: result.kind === 'page' ? result.page : null,
      totals: result.kind === 'page' ? result.totals : null,
      paged: filters.query.cursor !== undefined,
      error: result.kind === 'invalid' ? result.error : null,
    });
  }

  /** One sales date as CSV, the same file as GET /v1/settlements/export. */
  @Get('export')
  async export(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query() query: Record<string, unknown>,
    @Res() response: Response,
  ): Promise<void> {
    const mode: ConsoleMode = modeOf(query.mode, session.merchant);
    const parsed = parseExportDate(query);
    if (parsed.error !== null) {
      const typed = typeof query.date === 'string' ? query.date.trim() : '';
      return render(response, 400, {
        session,
        mode,
        values: { ...NO_SETTLEMENT_FILTERS, date: typed },
        day: null,
        page: null,
        totals: null,
        paged: false,
        error: parsed.error,
      });
    }
    const batches = this.settlements.dayInBatches(scopeOf(session.merchant, mode), parsed.day);
    await sendSettlementsCsv(response, `payhook-settlements-${parsed.day}-${mode}.csv`, batches, {
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  }
}

function render(response: Response, status: number, model: SettlementsListModel): void {
  sendPage(response, status, (nonce) => renderSettlementsList(nonce, model));
}
