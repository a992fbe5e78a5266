import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Request, Response } from 'express';
import { formField } from '../../../platform/html/cookies';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import type { Locale } from '../../../platform/i18n/locale';
import { TeamException, TeamService } from '../../../accounts/team';
import { renderConsoleError } from '../shared/console-layout.view';
import { consoleLocale } from '../shared/console-session';
import { renderAcceptInvite } from './console-team.view';
import { newPasswordProblem } from '../shared/new-password';
import { teamT } from './messages';

/** The token's shape (base64url of 32 bytes); anything else names no invite and reaches no query. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Used, expired, unknown or taken a moment earlier: one page for all, so it tells nothing about the others. */
function sendUnusable(response: Response, locale: Locale): void {
  const t = teamT(locale);
  sendPage(response, 404, (nonce) => renderConsoleError(nonce, locale, t('join.unusable.title'), t('join.unusable')));
}

/**
 * An invite link: the invited person sets a password and becomes a member. No session: the link is
 * the credential, and the page speaks the browser's language.
 */
@ConsoleController('console/invite')
export class ConsoleInviteController {
  constructor(private readonly team: TeamService) {}

  @Get(':token')
  async show(@Param('token') token: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const locale = consoleLocale(request);
    const invite = TOKEN.test(token) ? await this.team.usableInvite(token) : null;
    if (!invite) return sendUnusable(response, locale);
    sendPage(response, 200, (nonce) => renderAcceptInvite(nonce, locale, invite));
  }

  @Post(':token')
  async accept(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const locale = consoleLocale(request);
    const invite = TOKEN.test(token) ? await this.team.usableInvite(token) : null;
    if (!invite) return sendUnusable(response, locale);
    const password = formField(body, 'password') ?? '';
    const again = formField(body, 'passwordAgain');
    const refuse = (error: string) =>
      sendPage(response, 400, (nonce) => renderAcceptInvite(nonce, locale, { ...invite, error }));
    const problem = newPasswordProblem(locale, password, again);
    if (problem) return refuse(problem);
    try {
      await this.team.accept(token, password, request.ip ?? null);
    } catch (error) {
      // The service refuses an accept only as an unusable link (INVITE_UNUSABLE).
      if (!(error instanceof TeamException)) throw error;
      return sendUnusable(response, locale);
    }
    redirectSeeOther(response, '/console/login?notice=joined');
  }
}
