import { Body, Get, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import { ERROR_CODES, isIdOf, type ApiKeyMode } from '@payhook/contracts';
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
import { developersT, type DevelopersKey, type DevelopersMessage } from './messages';

/** The notices a redirect names (`?notice=`): a Map, so no name of Object.prototype reads as one. */
const NOTICES = new Map<string, DevelopersKey>([
  ['url-saved', 'notice.urlSaved'],
  ['secret-rotated', 'notice.secretRotated'],
  ['test-started', 'notice.testStarted'],
  ['endpoint-enabled', 'notice.endpointEnabled'],
  ['endpoint-added', 'notice.endpointAdded'],
  ['endpoint-saved', 'notice.endpointSaved'],
  ['endpoint-disabled', 'notice.endpointDisabled'],
  ['endpoint-deleted', 'notice.endpointDeleted'],
  ['key-revoked', 'notice.keyRevoked'],
]);

/** A refusal the service chose, in the reader's language. */
const said = (session: ConsoleSession, { key, values }: DevelopersMessage) => developersT(session.locale)(key, values);

/** What a key change was, for the words of its refusal. */
type KeyChange = { kind: 'create'; mode: ApiKeyMode } | { kind: 'roll' | 'revoke'; id: string };

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
    const key = typeof notice === 'string' ? NOTICES.get(notice) : undefined;
    await this.render(response, 200, session, { notice: key ? developersT(session.locale)(key) : null });
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
      return this.render(response, 400, session, { error: said(session, result.refusal), rejected: typed });
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
    if (!endpoint) {
      return this.render(response, 400, session, { error: developersT(session.locale)('error.noEndpoint', { mode }) });
    }
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
    const t = developersT(session.locale);
    const mode = formMode(body);
    const days = Number(formField(body, 'days'));
    if (!RECOVER_DAYS.includes(days)) return this.render(response, 400, session, { error: t('error.recoverPeriod') });
    const result = await this.developers.recover(session.merchant, mode, days);
    if (result.kind === 'refused') return this.render(response, 409, session, { error: said(session, result.refusal) });
    return this.render(response, 200, session, {
      notice: t('notice.recovered', { count: result.queued ?? 0, mode }),
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
    if (mode !== 'test' && mode !== 'live') {
      return this.render(response, 400, session, { error: developersT(session.locale)('error.keyMode') });
    }
    const issued = await this.keyChange(response, session, { kind: 'create', mode }, () =>
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
    const t = developersT(session.locale);
    const field = formField(body, 'overlapDays') ?? '';
    const days = /^\d$/.test(field) ? Number(field) : NaN;
    if (!(ROLL_OVERLAP_DAYS as readonly number[]).includes(days)) {
      return this.render(response, 400, session, { error: t('error.rollOverlap') });
    }
    const issued = await this.keyChange(response, session, { kind: 'roll', id }, () =>
      this.merchants.rollOwnApiKey(session.merchant.id, keyIdOf(id), days, consoleActor(session, request)),
    );
    if (issued) {
      await this.render(response, 200, session, { issuedKey: issued, notice: t('notice.keyRolled', { days }) });
    }
  }

  @Post('keys/:id/revoke')
  @ConsoleRole('developer')
  async revokeKey(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const done = await this.keyChange(response, session, { kind: 'revoke', id }, () =>
      this.merchants.revokeOwnApiKey(session.merchant.id, keyIdOf(id), consoleActor(session, request)).then(() => true),
    );
    if (done) redirectSeeOther(response, '/console/developers?notice=key-revoked#api-keys');
  }

  /** Runs a key change; a refusal (not the merchant's key, live keys locked, too many keys) is this page with its message. */
  private async keyChange<R>(
    response: Response,
    session: ConsoleSession,
    of: KeyChange,
    change: () => Promise<R>,
  ): Promise<R | null> {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof MerchantException)) throw error;
      const message = await this.keyRefusal(session, of, error);
      if (message === null) throw error;
      await this.render(response, ERROR_CODES[error.code].status, session, { error: message });
      return null;
    }
  }

  /** The merchants service words its refusals in the API's English; the page says them from its catalog. */
  private async keyRefusal(session: ConsoleSession, of: KeyChange, error: MerchantException): Promise<string | null> {
    const t = developersT(session.locale);
    if (error.code === 'live_mode_locked') return t('keys.liveLocked');
    if (error.code === 'merchant_state_conflict') {
      // Too many active keys of a mode: a roll names its key, and the limit is of that key's mode.
      const mode =
        of.kind === 'create'
          ? of.mode
          : (await this.merchants.listApiKeys(session.merchant.id)).find((key) => key.id === of.id)?.mode;
      return mode ? t('refused.keyLimit', { mode }) : null;
    }
    if (error.code === 'resource_not_found' && of.kind !== 'create') {
      return t(of.kind === 'roll' ? 'refused.keyNotRollable' : 'refused.noSuchKey', { id: of.id });
    }
    return null;
  }

  /** A change's answer: the page again with the refusal (400), or back to the page with its notice (303). */
  private async answerChange(
    response: Response,
    session: ConsoleSession,
    result: ChangeResult,
    notice: string,
    anchor: string,
  ): Promise<void> {
    if (result.kind === 'refused') return this.render(response, 400, session, { error: said(session, result.refusal) });
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
