import { Body, Get, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Response } from 'express';
import { formField } from '../../../platform/html/cookies';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { isIanaTimeZone } from '../../../platform/http/validators';
import { MerchantsService } from '../../../accounts/merchants';
import type { ConsoleSession } from '../shared/console-session';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { renderSettings } from './console-settings.view';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';

@ConsoleController('console/settings')
@UseGuards(ConsoleSessionGuard)
export class ConsoleSettingsController {
  constructor(private readonly merchants: MerchantsService) {}

  @Get()
  show(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query('notice') notice: unknown,
    @Res() response: Response,
  ): void {
    const saved = notice === 'saved' ? 'zone.saved' : null;
    sendPage(response, 200, (nonce) => renderSettings(nonce, { session, notice: saved, error: null }));
  }

  /** The same check as the operator API's timeZone: an IANA name this runtime knows. */
  @Post()
  async save(@CurrentConsoleSession() session: ConsoleSession, @Body() body: unknown, @Res() response: Response) {
    const timeZone = (formField(body, 'timeZone') ?? '').trim();
    if (!isIanaTimeZone(timeZone)) {
      return sendPage(response, 400, (nonce) =>
        renderSettings(nonce, { session, notice: null, error: 'zone.invalid', typed: timeZone }),
      );
    }
    await this.merchants.setTimeZone(session.merchant.id, timeZone);
    redirectSeeOther(response, '/console/settings?notice=saved');
  }
}
