import { Body, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import type { AuditActor } from '../../../core/audit';
import { formField } from '../../../platform/html/cookies';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { initialRefundForm } from '../refunds/console-refund-form';
import { renderPayment } from '../payments/console-payment.view';
import { ConsoleActorOf } from '../shared/console-actor';
import { ConsoleController } from '../shared/console-controller.decorator';
import { ConsoleRole } from '../shared/console-role.decorator';
import { modeOf, scopeOf, type ConsoleSession } from '../shared/console-session';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';
import { ConsoleEscrowService } from './console-escrow.service';
import { shipmentFormValues } from './console-shipment-form';
import { consoleEscrowT } from './messages';

/**
 * An escrow payment's shipment, from its page: the form posts here, and the browser goes back to the
 * payment (303) with a notice, or gets the page again with the form as typed and what was wrong.
 * Developers and owners only, as refunds.
 */
@ConsoleController('console/payments/:id/escrow')
@UseGuards(ConsoleSessionGuard)
export class ConsoleEscrowController {
  constructor(private readonly escrow: ConsoleEscrowService) {}

  /** The form's address opened with a GET (a reload, a typed address): back to the payment, nothing saved. */
  @Get('shipment')
  @ConsoleRole('developer')
  toPayment(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Query('mode') mode: unknown,
    @Res() response: Response,
  ): void {
    const params = new URLSearchParams({ mode: modeOf(mode, session.merchant) });
    redirectSeeOther(response, `/console/payments/${encodeURIComponent(id)}?${params.toString()}#escrow`);
  }

  @Post('shipment')
  @ConsoleRole('developer')
  async ship(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = modeOf(formField(body, 'mode'), session.merchant);
    const values = shipmentFormValues(body);
    const t = consoleEscrowT(session.locale);
    const outcome = await this.escrow.ship(scopeOf(session.merchant, mode), id, values, by, t);
    if (outcome.kind === 'refused') {
      const { detail } = outcome;
      const model = {
        session,
        mode,
        detail,
        notice: null,
        error: outcome.message,
        refundForm: { values: initialRefundForm(detail.refundable), errors: {} },
        shipmentForm: { values, errors: outcome.errors },
      };
      return sendPage(response, outcome.status, (nonce) => renderPayment(nonce, model));
    }
    const notice = outcome.kind === 'corrected' ? 'shipmentCorrected' : 'shipped';
    const params = new URLSearchParams({ mode, notice });
    redirectSeeOther(response, `/console/payments/${encodeURIComponent(id)}?${params.toString()}#escrow`);
  }
}
