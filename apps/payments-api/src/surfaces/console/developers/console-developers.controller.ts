import { Body, Get, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import { ERROR_CODES, isIdOf } from '@payhook/contracts';
import type { Request, Response } from 'express';
import { MerchantException, MerchantsService } from '../../../accounts/merchants';
import { formField, formFieldList } from '../../../platform/html/cookies';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { ConsoleDevelopersService, RECOVER_DAYS, type ChangeResult } from './console-developers.service';
import type { EndpointForm } from './console-endpoint-form';
import {
  ROLL_OVERLAP_DAYS,
  ROTATION_OVERLAPS,
  renderDevelopers,
  renderEndpointConfirm,
  renderRotateConfirm,
  type DevelopersModel,
} from './console-developers.view';
import { ConsoleException } from '../shared/console.exception';
import { ConsoleRole } from '../shared/console-role.decorator';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { ConsoleActorOf, consoleActor } from '../shared/console-actor';
import type { AuditActor } from '../../../core/audit';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';

/** The notices a redirect names (`?notice=`): a Map, so no name of Object.prototype reads as one. */
const NOTICES = new Map<string, string>([
  ['url-saved', 'Webhook URL saved. It receives events from now on; older events are not resent by this.'],
  ['secret-rotated', 'Signing secret rotated: the new secret signs every webhook from now on.'],
  ['test-started', 'Integration test started: this page updates until it finishes.'],
  ['endpoint-enabled', 'Webhook endpoint enabled again. Send its failed events again with the button below.'],
  ['endpoint-added', 'Webhook endpoint added, with a signing secret of its own. It receives events from now on.'],
  ['endpoint-saved', 'Webhook endpoint saved and enabled.'],
  ['endpoint-disabled', 'Webhook endpoint disabled: nothing is sent to it until it is enabled again.'],
  ['endpoint-deleted', 'Webhook endpoint deleted.'],
  ['key-revoked', 'API key revoked: it stops working within 5 seconds.'],
]);

/** What the add and edit forms of an endpoint hold. */
const endpointFields = (body: unknown): EndpointForm => ({
  url: (formField(body, 'url') ?? '').trim(),
  description: formField(body, 'description') ?? '',
  events: formFieldList(body, 'events'),
});

/** The form's mode: both modes' endpoints are on one page, so each form says which it changes. */
const formMode = (body: unknown): ConsoleMode => (formField(body, 'mode') === 'live' ? 'live' : 'test');

/** A path's endpoint id; a malformed one names nothing (404 before any query). */
function endpointIdOf(id: string): string {
  if (!isIdOf('webhookEndpoint', id)) throw notFound();
  return id;
}

const notFound = () => new ConsoleException('not_found', 'No such webhook endpoint.');

function keyIdOf(id: string): string {
  if (!isIdOf('apiKey', id)) throw new ConsoleException('not_found', 'No such API key.');
  return id;
}

const rolledNotice = (days: number) =>
  days === 0
    ? 'Key rolled: the old key stopped now.'
    : `Key rolled: the old key keeps working for ${days} day${days === 1 ? '' : 's'}, then stops.`;

@ConsoleController('console/developers')
@UseGuards(ConsoleSessionGuard)
export class ConsoleDevelopersController {
  constructor(
    private readonly developers: ConsoleDevelopersService,
    private readonly merchants: MerchantsService,
  ) {}

  @Get()
  async show(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query('notice') notice: unknown,
    @Res() response: Response,
  ): Promise<void> {
    await this.render(response, 200, session, {
      notice: typeof notice === 'string' ? (NOTICES.get(notice) ?? null) : null,
    });
  }

  @Post('webhook-endpoint')
  @ConsoleRole('developer')
  async setUrl(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = formMode(body);
    const url = (formField(body, 'url') ?? '').trim();
    // The form lists the types; a post without that list (an older page) keeps the endpoint's own.
    const events = formField(body, 'events-listed') === '1' ? formFieldList(body, 'events') : undefined;
    const result = await this.developers.setWebhookEndpoint(session.merchant, mode, url, events, by);
    if (result.kind === 'refused') {
      const typed = { mode, url, events: events ?? [] };
      return this.render(response, 400, session, { error: result.message, rejected: typed });
    }
    redirectSeeOther(response, `/console/developers?notice=url-saved#endpoint-${mode}`);
  }

  /** Re-enabling is a PUT of the same URL: the failure record is cleared and the secret kept. */
  @Post('webhook-endpoint/enable')
  @ConsoleRole('developer')
  async enable(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = formMode(body);
    const [endpoint] = (await this.developers.overview(session.merchant)).endpoints[mode];
    if (!endpoint) return this.render(response, 400, session, { error: `No ${mode} webhook endpoint is set.` });
    const result = await this.developers.setWebhookEndpoint(session.merchant, mode, endpoint.url, undefined, by);
    return this.answerChange(response, session, result, 'endpoint-enabled', `endpoint-${mode}`);
  }

  @Post('recover')
  @ConsoleRole('developer')
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
  @ConsoleRole('developer')
  confirmRotate(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query('mode') mode: unknown,
    @Res() response: Response,
  ): void {
    sendPage(response, 200, (nonce) => renderRotateConfirm(nonce, session, mode === 'live' ? 'live' : 'test'));
  }

  @Post('rotate-secret')
  @ConsoleRole('developer')
  async rotate(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = formMode(body);
    // Only the overlaps the page offers; anything else (an older page, a forged form) rotates without one.
    const overlap = ROTATION_OVERLAPS.find(({ seconds }) => String(seconds) === formField(body, 'overlap'));
    const result = await this.developers.rotateSecret(session.merchant, mode, overlap?.seconds ?? 0, by);
    return this.answerChange(response, session, result, 'secret-rotated', `endpoint-${mode}`);
  }

  @Post('endpoints')
  @ConsoleRole('developer')
  async addEndpoint(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const mode = formMode(body);
    const result = await this.developers.addEndpoint(session.merchant, mode, endpointFields(body), by);
    return this.answerChange(response, session, result, 'endpoint-added', 'webhooks');
  }

  @Post('endpoints/:id')
  @ConsoleRole('developer')
  async changeEndpoint(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const result = await this.developers.changeEndpoint(
      session.merchant,
      formMode(body),
      endpointIdOf(id),
      endpointFields(body),
      by,
    );
    return this.answerChange(response, session, result, 'endpoint-saved', `endpoint-${id}`);
  }

  @Post('endpoints/:id/enable')
  @ConsoleRole('developer')
  async enableEndpoint(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const result = await this.developers.setEndpointEnabled(
      session.merchant,
      formMode(body),
      endpointIdOf(id),
      true,
      by,
    );
    return this.answerChange(response, session, result, 'endpoint-enabled', `endpoint-${id}`);
  }

  @Post('endpoints/:id/disable')
  @ConsoleRole('developer')
  async disableEndpoint(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const result = await this.developers.setEndpointEnabled(
      session.merchant,
      formMode(body),
      endpointIdOf(id),
      false,
      by,
    );
    return this.answerChange(response, session, result, 'endpoint-disabled', `endpoint-${id}`);
  }

  /** The confirmation steps of rotating a further endpoint's secret and of deleting it. */
  @Get('endpoints/:id/:action')
  @ConsoleRole('developer')
  async confirmEndpointChange(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Param('action') action: string,
    @Query('mode') mode: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const consoleMode: ConsoleMode = mode === 'live' ? 'live' : 'test';
    const endpoint = await this.developers.endpoint(session.merchant, consoleMode, endpointIdOf(id));
    if (!endpoint || (action !== 'rotate-secret' && action !== 'delete')) throw notFound();
    sendPage(response, 200, (nonce) => renderEndpointConfirm(nonce, session, consoleMode, endpoint, action));
  }

  @Post('endpoints/:id/rotate-secret')
  @ConsoleRole('developer')
  async rotateEndpointSecret(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const overlap = ROTATION_OVERLAPS.find(({ seconds }) => String(seconds) === formField(body, 'overlap'));
    const result = await this.developers.rotateEndpointSecret(
      session.merchant,
      formMode(body),
      endpointIdOf(id),
      overlap?.seconds ?? 0,
      by,
    );
    return this.answerChange(response, session, result, 'secret-rotated', `endpoint-${id}`);
  }

  @Post('endpoints/:id/delete')
  @ConsoleRole('developer')
  async deleteEndpoint(
    @CurrentConsoleSession() session: ConsoleSession,
    @ConsoleActorOf() by: AuditActor,
    @Param('id') id: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const result = await this.developers.deleteEndpoint(session.merchant, formMode(body), endpointIdOf(id), by);
    return this.answerChange(response, session, result, 'endpoint-deleted', 'webhooks');
  }

  @Post('integration-tests')
  @ConsoleRole('developer')
  async runIntegrationTest(@CurrentConsoleSession() session: ConsoleSession, @Res() response: Response): Promise<void> {
    await this.developers.runIntegrationTest(session.merchant);
    redirectSeeOther(response, '/console/developers?notice=test-started#go-live');
  }

  @Post('keys')
  @ConsoleRole('developer')
  async createKey(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const mode = formField(body, 'mode');
    if (mode !== 'test' && mode !== 'live')
      return this.render(response, 400, session, { error: 'Choose test or live.' });
    const issued = await this.keyChange(response, session, () =>
      this.merchants.createOwnApiKey(session.merchant.id, mode, consoleActor(session, request)),
    );
    if (issued) await this.render(response, 200, session, { issuedKey: issued });
  }

  @Post('keys/:id/roll')
  @ConsoleRole('developer')
  async rollKey(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const field = formField(body, 'overlapDays') ?? '';
    const days = /^\d$/.test(field) ? Number(field) : NaN;
    if (!(ROLL_OVERLAP_DAYS as readonly number[]).includes(days)) {
      return this.render(response, 400, session, { error: 'Choose how long the old key keeps working: 0 to 7 days.' });
    }
    const issued = await this.keyChange(response, session, () =>
      this.merchants.rollOwnApiKey(session.merchant.id, keyIdOf(id), days, consoleActor(session, request)),
    );
    if (issued) await this.render(response, 200, session, { issuedKey: issued, notice: rolledNotice(days) });
  }

  @Post('keys/:id/revoke')
  @ConsoleRole('developer')
  async revokeKey(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const done = await this.keyChange(response, session, () =>
      this.merchants.revokeOwnApiKey(session.merchant.id, keyIdOf(id), consoleActor(session, request)).then(() => true),
    );
    if (done) redirectSeeOther(response, '/console/developers?notice=key-revoked#api-keys');
  }

  /** Runs a key change; a refusal (not the merchant's key, live keys locked, too many keys) is this page with its message. */
  private async keyChange<R>(response: Response, session: ConsoleSession, change: () => Promise<R>): Promise<R | null> {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof MerchantException)) throw error;
      await this.render(response, ERROR_CODES[error.code].status, session, { error: error.message });
      return null;
    }
  }

  /** A change's answer: the page again with the refusal (400), or back to the page with its notice (303). */
  private async answerChange(
    response: Response,
    session: ConsoleSession,
    result: ChangeResult,
    notice: string,
    anchor: string,
  ): Promise<void> {
    if (result.kind === 'refused') return this.render(response, 400, session, { error: result.message });
    redirectSeeOther(response, `/console/developers?notice=${notice}#${anchor}`);
  }

  private async render(
    response: Response,
    status: number,
    session: ConsoleSession,
    extra: Partial<Pick<DevelopersModel, 'notice' | 'error' | 'rejected' | 'issuedKey'>>,
  ): Promise<void> {
    const overview = await this.developers.overview(session.merchant);
    const model: DevelopersModel = { session, overview, notice: null, error: null, ...extra };
    sendPage(response, status, (nonce) => renderDevelopers(nonce, model));
  }
}
