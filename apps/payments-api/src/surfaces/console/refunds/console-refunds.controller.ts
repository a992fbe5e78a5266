import { Body, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Response } from 'express';
import { formField } from '../../../platform/html/cookies';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import type { AuditActor } from '../../../core/audit';
import { ConsoleActorOf } from '../shared/console-actor';
import { ConsoleRole } from '../shared/console-role.decorator';
import { renderPayment } from '../payments/console-payment.view';
import { ConsolePaymentsService } from '../payments/console-payments.service';
import { isRefundKey, refundFormValues, type RefundFormValues } from './console-refund-form';
import { ConsoleRefundsService, type RefundRefused } from './console-refunds.service';
import { renderRefundConfirm } from './console-refunds.view';
import { modeOf, scopeOf, type ConsoleMode, type ConsoleSession } from '../shared/console-session';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { ConsoleException } from '../shared/console.exception';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';
import { consoleRefundsT } from './messages';

/**
 * Refunding a payment from its page: the form posts to review (a confirmation page that restates
 * the refund), Confirm posts the refund with the confirmation's idempotency key, and the browser
 * goes back to the payment (303). Every step is a POST: the refund account never sits in an address.
 */
@ConsoleController('console/payments/:id/refunds')
@UseGuards(ConsoleSessionGuard)
export class ConsoleRefundsController {
  constructor(
    private readonly refunds: ConsoleRefundsService,
    private readonly payments: ConsolePaymentsService,
  ) {}

  /** A reload of a step's page (the browser asks again with a GET): back to the payment, nothing made. */
  @Get(['review', 'edit'])
  @ConsoleRole('developer')
  toPayment(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Query('mode') mode: unknown,
    @Res() response: Response,
  ): void {
    const params = new URLSearchParams({ mode: modeOf(mode, session.merchant) });
    redirectSeeOther(response, `/console/payments/${encodeURIComponent(id)}?${params.toString()}#refunds`);
  }

  @Post('review')
  @ConsoleRole('developer')
  async review(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = modeOf(formField(body, 'mode'), session.merchant);
    const values = refundFormValues(body);
    const t = consoleRefundsT(session.locale);
    const review = await this.refunds.review(scopeOf(session.merchant, mode), id, values, t);
    if (review.kind === 'refused') return sendRefused(response, session, mode, review, values);
    const confirm = {
      session,
      mode,
      detail: review.detail,
      request: review.request,
      idempotencyKey: review.idempotencyKey,
    };
    sendPage(response, 200, (nonce) => renderRefundConfirm(nonce, confirm));
  }

  /** Back from the confirmation: the payment page with the form as it was typed. */
  @Post('edit')
  @ConsoleRole('developer')
  async edit(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = modeOf(formField(body, 'mode'), session.merchant);
    const detail = await this.payments.detail(scopeOf(session.merchant, mode), id);
    const model = {
      session,
      mode,
      detail,
      notice: null,
      error: null,
      refundForm: { values: refundFormValues(body), errors: {} },
    };
    sendPage(response, 200, (nonce) => renderPayment(nonce, model));
  }

  @Post()
  @ConsoleRole('developer')
  async create(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const key = formField(body, 'idempotencyKey');
    if (!isRefundKey(key)) {
      throw new ConsoleException('csrf_invalid', 'This refund confirmation did not come from the console.');
    }
    const mode = modeOf(formField(body, 'mode'), session.merchant);
    const values = refundFormValues(body);
    const t = consoleRefundsT(session.locale);
    const outcome = await this.refunds.create(scopeOf(session.merchant, mode), id, key, values, by, t);
    if (outcome.kind === 'refused') {
      // Submitted: the refund account is not shown again, even on a refusal.
      const withoutAccount = { ...values, bank: '', accountNumber: '', holderName: '' };
      return sendRefused(response, session, mode, outcome, withoutAccount);
    }
    const params = new URLSearchParams({ mode, notice: 'refunded' });
    redirectSeeOther(response, `/console/payments/${encodeURIComponent(id)}?${params.toString()}#refunds`);
  }
}

/** The payment page with the refusal, and the form refilled with `values`. */
function sendRefused(
  response: Response,
  session: ConsoleSession,
  mode: ConsoleMode,
  refused: RefundRefused,
  values: RefundFormValues,
): void {
  const model = {
    session,
    mode,
    detail: refused.detail,
    notice: null,
    error: refused.message,
    refundForm: { values, errors: refused.errors },
  };
  sendPage(response, refused.status, (nonce) => renderPayment(nonce, model));
}
