import { Body, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Response } from 'express';
import { formField } from '../../../platform/html/cookies';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { ConsoleRole } from '../shared/console-role.decorator';
import { parsePaymentFilters } from './console-payment-filters';
import { renderPayment } from './console-payment.view';
import { initialRefundForm } from '../refunds/console-refund-form';
import { ConsolePaymentsService } from './console-payments.service';
import { renderPaymentsList } from './console-payments.view';
import { modeOf, scopeOf, type ConsoleSession } from '../shared/console-session';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';
import { consolePaymentsT, type ConsolePaymentsKey } from './messages';

/** The notices a redirect names (`?notice=`): a Map, so no name of Object.prototype reads as one. */
const NOTICES = new Map<string, ConsolePaymentsKey>([
  ['redelivery', 'notice.redelivery'],
  ['refunded', 'notice.refunded'],
  ['shipped', 'notice.shipped'],
  ['shipmentCorrected', 'notice.shipmentCorrected'],
]);

/** Payments of the session's merchant in one mode: the list, one payment, and redelivering its events. */
@ConsoleController('console')
@UseGuards(ConsoleSessionGuard)
export class ConsolePaymentsController {
  constructor(private readonly payments: ConsolePaymentsService) {}

  @Get()
  home(@Res() response: Response): void {
    redirectSeeOther(response, '/console/payments');
  }

  @Get('payments')
  async list(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query() query: Record<string, unknown>,
    @Res() response: Response,
  ): Promise<void> {
    const mode = modeOf(query.mode, session.merchant);
    const t = consolePaymentsT(session.locale);
    const filters = parsePaymentFilters(query, session.merchant.timeZone, t);
    const result = filters.error
      ? ({ kind: 'invalid', message: filters.error } as const)
      : await this.payments.list(scopeOf(session.merchant, mode), filters.query, t);
    const list = {
      session,
      mode,
      values: filters.values,
      page: result.kind === 'page' ? result.page : null,
      paged: filters.query.cursor !== undefined,
      error: result.kind === 'invalid' ? result.message : null,
    };
    sendPage(response, result.kind === 'page' ? 200 : 400, (nonce) => renderPaymentsList(nonce, list));
  }

  @Get('payments/:id')
  async show(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Res() response: Response,
  ): Promise<void> {
    const mode = modeOf(query.mode, session.merchant);
    const detail = await this.payments.detail(scopeOf(session.merchant, mode), id);
    const notice = typeof query.notice === 'string' ? (NOTICES.get(query.notice) ?? null) : null;
    const refundForm = { values: initialRefundForm(detail.refundable), errors: {} };
    sendPage(response, 200, (nonce) =>
      renderPayment(nonce, { session, mode, detail, notice, error: null, refundForm }),
    );
  }

  @Post('payments/:id/events/:eventId/redeliver')
  @ConsoleRole('developer')
  async redeliver(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Param('eventId') eventId: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = modeOf(formField(body, 'mode'), session.merchant);
    await this.payments.redeliver(scopeOf(session.merchant, mode), id, eventId);
    const params = new URLSearchParams({ mode, notice: 'redelivery' });
    redirectSeeOther(response, `/console/payments/${encodeURIComponent(id)}?${params.toString()}#${eventId}`);
  }
}
