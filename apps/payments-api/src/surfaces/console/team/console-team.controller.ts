import { Body, Get, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import { ERROR_CODES, isIdOf } from '@payhook/contracts';
import type { Request, Response } from 'express';
import { formField } from '../../../platform/html/cookies';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { isMemberRole, TeamException, TeamService, type IssuedInvite } from '../../../accounts/team';
import { consoleActor } from '../shared/console-actor';
import type { ConsoleSession } from '../shared/console-session';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { renderRemoveConfirm, renderTeam } from './console-team.view';
import { ConsoleRole } from '../shared/console-role.decorator';
import { ConsoleException } from '../shared/console.exception';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';
import { teamT, type TeamKey } from './messages';

/** The notices a redirect names (`?notice=`): a Map, so no name of Object.prototype reads as one. */
const NOTICES = new Map<string, TeamKey>([
  ['role-changed', 'notice.roleChanged'],
  ['removed', 'notice.removed'],
  ['invite-revoked', 'notice.inviteRevoked'],
]);

/**
 * What a refused change says to the reader, in their language. The service's refusals are told
 * apart by the change asked for and the refusal's code; its English message is for the log.
 */
type RefusalText = (refusal: TeamException) => string | Promise<string>;

function idOf(kind: 'member' | 'invite', id: string): string {
  if (!isIdOf(kind, id)) throw new ConsoleException('not_found', `No such ${kind}.`);
  return id;
}

/** The team page: members and roles for everyone to see; invites, role changes and removal for owners. */
@ConsoleController('console/team')
@UseGuards(ConsoleSessionGuard)
export class ConsoleTeamController {
  constructor(private readonly team: TeamService) {}

  @Get()
  async show(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query('notice') notice: unknown,
    @Res() response: Response,
  ) {
    const key = typeof notice === 'string' ? NOTICES.get(notice) : undefined;
    await this.render(response, 200, session, key ? teamT(session.locale)(key) : null, null);
  }

  @Post('invites')
  async invite(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const role = formField(body, 'role');
    if (!isMemberRole(role)) {
      return this.render(response, 400, session, null, teamT(session.locale)('error.inviteRole'));
    }
    const email = formField(body, 'email') ?? '';
    const issued = await this.refusalOf(
      response,
      session,
      (refusal) => this.inviteRefusal(session, email, refusal),
      () => this.team.invite(session.merchant.id, email, role, consoleActor(session, request), session.locale),
    );
    if (issued) await this.render(response, 200, session, null, null, issued);
  }

  @Post('invites/:id/revoke')
  async revokeInvite(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const done = await this.refusalOf(
      response,
      session,
      () => teamT(session.locale)('error.noOpenInvite'),
      () =>
        this.team
          .revokeInvite(session.merchant.id, idOf('invite', id), consoleActor(session, request))
          .then(() => true),
    );
    if (done) redirectSeeOther(response, '/console/team?notice=invite-revoked');
  }

  /** A new link for an open invite (the old one stops), e-mailed again or, with e-mail off, shown once. */
  @Post('invites/:id/resend')
  async resendInvite(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const issued = await this.refusalOf(
      response,
      session,
      () => teamT(session.locale)('error.inviteNotOpen'),
      () =>
        this.team.resendInvite(session.merchant.id, idOf('invite', id), consoleActor(session, request), session.locale),
    );
    if (issued) await this.render(response, 200, session, null, null, issued);
  }

  @Post('members/:id/role')
  async changeRole(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const t = teamT(session.locale);
    const role = formField(body, 'role');
    if (!isMemberRole(role)) return this.render(response, 400, session, null, t('error.role'));
    const done = await this.refusalOf(
      response,
      session,
      (refusal) => t(refusal.code === 'merchant_state_conflict' ? 'error.lastOwnerRole' : 'error.noMember'),
      () =>
        this.team
          .changeRole(session.merchant.id, idOf('member', id), role, consoleActor(session, request))
          .then(() => true),
    );
    if (done) redirectSeeOther(response, '/console/team?notice=role-changed');
  }

  /** The confirmation step of a removal: the team page links here, this page posts. */
  @Get('members/:id/remove')
  @ConsoleRole('owner')
  async confirmRemove(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Res() response: Response,
  ) {
    const member = await this.team.member(session.merchant.id, idOf('member', id));
    if (!member) throw new ConsoleException('not_found', 'No such member.');
    sendPage(response, 200, (nonce) => renderRemoveConfirm(nonce, session, member));
  }

  @Post('members/:id/remove')
  async remove(
    @CurrentConsoleSession() session: ConsoleSession,
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const done = await this.refusalOf(
      response,
      session,
      (refusal) =>
        teamT(session.locale)(refusal.code === 'merchant_state_conflict' ? 'error.lastOwnerRemove' : 'error.noMember'),
      () => this.team.remove(session.merchant.id, idOf('member', id), consoleActor(session, request)).then(() => true),
    );
    if (!done) return;
    // Removing yourself ends this session too (the member's sessions go with it).
    redirectSeeOther(response, id === session.member.id ? '/console/login' : '/console/team?notice=removed');
  }

  /**
   * Why an invite was refused: too many today, or (both `parameter_invalid`) the address of a member
   * already or no address at all; the address as the service compares it, trimmed and lower-case.
   */
  private async inviteRefusal(session: ConsoleSession, email: string, refusal: TeamException): Promise<string> {
    const t = teamT(session.locale);
    if (refusal.code === 'rate_limited') return t('error.tooManyInvites');
    const address = email.trim().toLowerCase();
    const members = await this.team.list(session.merchant.id);
    return members.some((member) => member.email === address)
      ? t('error.alreadyMember', { email: address })
      : t('error.inviteEmail');
  }

  /** Runs a change; a TeamException becomes the team page saying why (and nothing changed). */
  private async refusalOf<R>(
    response: Response,
    session: ConsoleSession,
    textOf: RefusalText,
    change: () => Promise<R>,
  ): Promise<R | null> {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof TeamException)) throw error;
      await this.render(response, ERROR_CODES[error.code].status, session, null, await textOf(error));
      return null;
    }
  }

  private async render(
    response: Response,
    status: number,
    session: ConsoleSession,
    notice: string | null,
    error: string | null,
    issued?: IssuedInvite,
  ) {
    const [members, invites] = await Promise.all([
      this.team.list(session.merchant.id),
      this.team.recentInvites(session.merchant.id),
    ]);
    sendPage(response, status, (nonce) => renderTeam(nonce, { session, members, invites, notice, error, issued }));
  }
}
