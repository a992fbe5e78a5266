import { Body, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Request, Response } from 'express';
import { formField } from '../../../platform/html/cookies';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { INVITE_UNUSABLE, TeamException, TeamService } from '../../../accounts/team';
import { renderConsoleError } from '../shared/console-layout.view';
import { renderAcceptInvite } from './console-team.view';
import { newPasswordProblem } from '../shared/new-password';

/** The token's shape (base64url of 32 bytes); anything else names no invite and reaches no query. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** An invite link: the invited person sets a password and becomes a member. No session: the link is the credential. */
@ConsoleController('console/invite')
export class ConsoleInviteController {
  constructor(private readonly team: TeamService) {}

  @Get(':token')
  async show(@Param('token') token: string, @Res() response: Response): Promise<void> {
    const invite = TOKEN.test(token) ? await this.team.usableInvite(token) : null;
    if (!invite) {
      return sendPage(response, 404, (nonce) => renderConsoleError(nonce, 'Invite not usable', INVITE_UNUSABLE));
    }
    sendPage(response, 200, (nonce) => renderAcceptInvite(nonce, invite));
  }

  @Post(':token')
  async accept(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const invite = TOKEN.test(token) ? await this.team.usableInvite(token) : null;
    if (!invite) {
      return sendPage(response, 404, (nonce) => renderConsoleError(nonce, 'Invite not usable', INVITE_UNUSABLE));
    }
    const password = formField(body, 'password') ?? '';
    const again = formField(body, 'passwordAgain');
    const refuse = (error: string) =>
      sendPage(response, 400, (nonce) => renderAcceptInvite(nonce, { ...invite, error }));
    const problem = newPasswordProblem(password, again);
    if (problem) return refuse(problem);
    try {
      await this.team.accept(token, password, request.ip ?? null);
    } catch (error) {
      if (!(error instanceof TeamException)) throw error;
      return sendPage(response, 404, (nonce) => renderConsoleError(nonce, 'Invite not usable', error.message));
    }
    redirectSeeOther(response, '/console/login?notice=joined');
  }
}
