import { Body, Controller, Get, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { formField, formFieldList } from '../html/cookies';
import { newNonce, redirectSeeOther, sendHtml } from '../html/html-response';
import { ConsoleDevelopersService, RECOVER_DAYS } from './console-developers.service';
import {
  ROTATION_OVERLAPS,
  renderDevelopers,
  renderRotateConfirm,
  type DevelopersModel,
} from './console-developers.view';
import { ConsoleExceptionFilter } from './console-exception.filter';
import type { ConsoleMode, ConsoleSession } from './console-session';
import { ConsoleSessionGuard } from './console-session.guard';
import { CurrentConsoleSession } from './current-console-session.decorator';

const NOTICES: Record<string, string> = {
  'url-saved': 'Webhook URL saved. It receives events from now on; older events are not resent by this.',
  'secret-rotated': 'Signing secret rotated: the new secret signs every webhook from now on.',
  'test-started': 'Integration test started: this page updates until it finishes.',
  'endpoint-enabled': 'Webhook endpoint enabled again. Send its failed events again with the button below.',
};

/** The form's mode: both modes' endpoints are on one page, so each form says which it changes. */
const formMode = (body: unknown): ConsoleMode => (formField(body, 'mode') === 'live' ? 'live' : 'test');

@Controller('console/developers')
@UseGuards(ConsoleSessionGuard)
@UseFilters(ConsoleExceptionFilter)
export class ConsoleDevelopersController {
  constructor(private readonly developers: ConsoleDevelopersService) {}

  @Get()
  async show(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query('notice') notice: unknown,
    @Res() response: Response,
  ): Promise<void> {
    await this.render(response, 200, session, {
      notice: typeof notice === 'string' ? (NOTICES[notice] ?? null) : null,
    });
  }

  @Post('webhook-endpoint')
  async setUrl(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = formMode(body);
    const url = (formField(body, 'url') ?? '').trim();
    // The form lists the types; a post without that list (an older page) keeps the endpoint's own.
    const events = formField(body, 'events-listed') === '1' ? formFieldList(body, 'events') : undefined;
    const result = await this.developers.setWebhookEndpoint(session.merchant, mode, url, events);
    if (result.kind === 'refused') {
      const typed = { mode, url, events: events ?? [] };
      return this.render(response, 400, session, { error: result.message, rejected: typed });
    }
    redirectSeeOther(response, `/console/developers?notice=url-saved#endpoint-${mode}`);
  }

  /** Re-enabling is a PUT of the same URL: the failure record is cleared and the secret kept. */
  @Post('webhook-endpoint/enable')
  async enable(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = formMode(body);
    const endpoint = (await this.developers.overview(session.merchant)).endpoints[mode];
    if (!endpoint) return this.render(response, 400, session, { error: `No ${mode} webhook endpoint is set.` });
    const result = await this.developers.setWebhookEndpoint(session.merchant, mode, endpoint.url);
    if (result.kind === 'refused') return this.render(response, 400, session, { error: result.message });
    redirectSeeOther(response, `/console/developers?notice=endpoint-enabled#endpoint-${mode}`);
  }

  @Post('recover')
  async recover(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = formMode(body);
    const days = Number(formField(body, 'days'));
    if (!RECOVER_DAYS.includes(days))
      return this.render(response, 400, session, { error: 'Choose a period to recover.' });
    const result = await this.developers.recover(session.merchant, mode, days);
    if (result.kind === 'refused') return this.render(response, 409, session, { error: result.message });
    const queued = result.queued ?? 0;
    return this.render(response, 200, session, {
      notice: `${queued} failed ${mode} event${queued === 1 ? '' : 's'} queued to be sent again, oldest first.`,
    });
  }

  /** The confirmation step: nothing changes until its form is sent. */
  @Get('rotate-secret')
  confirmRotate(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query('mode') mode: unknown,
    @Res() response: Response,
  ): void {
    const nonce = newNonce();
    sendHtml(response, 200, renderRotateConfirm(nonce, session, mode === 'live' ? 'live' : 'test'), nonce);
  }

  @Post('rotate-secret')
  async rotate(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = formMode(body);
    // Only the overlaps the page offers; anything else (an older page, a forged form) rotates without one.
    const overlap = ROTATION_OVERLAPS.find(({ seconds }) => String(seconds) === formField(body, 'overlap'));
    const result = await this.developers.rotateSecret(session.merchant, mode, overlap?.seconds ?? 0);
    if (result.kind === 'refused') return this.render(response, 400, session, { error: result.message });
    redirectSeeOther(response, `/console/developers?notice=secret-rotated#endpoint-${mode}`);
  }

  @Post('integration-tests')
  async runIntegrationTest(@CurrentConsoleSession() session: ConsoleSession, @Res() response: Response): Promise<void> {
    await this.developers.runIntegrationTest(session.merchant);
    redirectSeeOther(response, '/console/developers?notice=test-started#go-live');
  }

  private async render(
    response: Response,
    status: number,
    session: ConsoleSession,
    extra: Partial<Pick<DevelopersModel, 'notice' | 'error' | 'rejected'>>,
  ): Promise<void> {
    const overview = await this.developers.overview(session.merchant);
    const nonce = newNonce();
    const model: DevelopersModel = { session, overview, notice: null, error: null, ...extra };
    sendHtml(response, status, renderDevelopers(nonce, model), nonce);
  }
}
