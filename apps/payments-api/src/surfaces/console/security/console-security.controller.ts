import { Body, Get, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Request, Response } from 'express';
import { formField } from '../../../platform/html/cookies';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { TeamService, TwoStepService } from '../../../accounts/team';
import { ConsoleAuthService } from '../../../accounts/console-logins';
import { secondStepThrottledMessage, throttledMessage } from '../shared/console-throttled';
import { ConsoleRole } from '../shared/console-role.decorator';
import { renderSecurity, type SecurityModel } from './console-security.view';
import type { ConsoleSession } from '../shared/console-session';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { consoleActor } from '../shared/console-actor';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';
import { newPasswordProblem } from '../shared/new-password';
import { isLocale, negotiateLocale } from '../../../platform/i18n/locale';
import { consoleSecurityT, type ConsoleSecurityKey } from './messages';

/** The notices a redirect names (`?notice=`): a Map, so no name of Object.prototype reads as one. */
const NOTICES = new Map<string, ConsoleSecurityKey>([
  ['disabled', 'twoStep.disabled'],
  ['password-changed', 'password.changed'],
  ['language', 'language.saved'],
]);

/** Each member's own login: the password, two-step login (TOTP) on and off, the language. Every role may change its own. */
@ConsoleController('console/security')
@UseGuards(ConsoleSessionGuard)
export class ConsoleSecurityController {
  constructor(
    private readonly twoStep: TwoStepService,
    private readonly auth: ConsoleAuthService,
    private readonly team: TeamService,
  ) {}

  @Get()
  async show(
    @CurrentConsoleSession() session: ConsoleSession,
    @Query('notice') notice: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const key = typeof notice === 'string' ? NOTICES.get(notice) : undefined;
    const text = key ? consoleSecurityT(session.locale)(key) : null;
    await this.render(request, response, 200, { session, notice: text, error: null });
  }

  /** The member's language (empty: the browser's): the console and the member's e-mails use it. */
  @Post('language')
  @ConsoleRole('viewer')
  async chooseLanguage(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const chosen = formField(body, 'locale');
    if (chosen !== '' && !isLocale(chosen)) {
      const error = consoleSecurityT(session.locale)('language.invalid');
      return this.render(request, response, 400, { session, notice: null, error });
    }
    await this.team.chooseLanguage(session.member.id, chosen === '' ? null : chosen);
    redirectSeeOther(response, '/console/security?notice=language');
  }

  /** Asks for the password first: a session left open must not bind the login to someone else's phone. */
  @Post('two-step')
  @ConsoleRole('viewer')
  async start(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    if (session.member.twoStep) return redirectSeeOther(response, '/console/security');
    const checked = await this.auth.checkPassword(session, formField(body, 'password') ?? '', request.ip ?? 'unknown');
    if (checked.kind === 'throttled') {
      return this.render(request, response, 429, {
        session,
        notice: null,
        error: throttledMessage(response, session.locale, checked.until),
      });
    }
    if (checked.kind === 'refused') {
      return this.render(request, response, 400, {
        session,
        notice: null,
        error: consoleSecurityT(session.locale)('twoStep.passwordWrong'),
      });
    }
    const setup = await this.twoStep.startSetup(session.member);
    await this.render(request, response, 200, { session, notice: null, error: null, setup });
  }

  @Post('two-step/confirm')
  @ConsoleRole('viewer')
  async confirm(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const member = { id: session.member.id, merchantId: session.merchant.id };
    const codes = await this.twoStep.confirmSetup(
      member,
      formField(body, 'code') ?? '',
      consoleActor(session, request),
    );
    if (!codes) {
      // The secret is never shown again without the password: the phone that scanned it can still
      // confirm, anyone else at this session must set up anew.
      const error = consoleSecurityT(session.locale)('twoStep.wrongSetupCode');
      return this.render(request, response, 400, { session, notice: null, error, confirmAgain: true });
    }
    await this.auth.signOutElsewhere(session);
    const now = { ...session, member: { ...session.member, twoStep: true } };
    await this.render(request, response, 200, { session: now, notice: null, error: null, recoveryCodes: codes });
  }

  /** A new password: the current one first (throttled as sign-ins are); every other session ends. */
  @Post('password')
  @ConsoleRole('viewer')
  async changePassword(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    const refuse = (status: number, error: string) =>
      this.render(request, response, status, { session, notice: null, error });
    const next = formField(body, 'newPassword') ?? '';
    const problem = newPasswordProblem(session.locale, next, formField(body, 'newPasswordAgain'));
    if (problem) return refuse(400, problem);
    const checked = await this.auth.checkPassword(session, formField(body, 'password') ?? '', request.ip ?? 'unknown');
    if (checked.kind === 'throttled') return refuse(429, throttledMessage(response, session.locale, checked.until));
    if (checked.kind === 'refused') return refuse(400, consoleSecurityT(session.locale)('password.wrong'));
    await this.team.changePassword(
      { id: session.member.id, merchantId: session.merchant.id },
      next,
      consoleActor(session, request),
    );
    await this.auth.signOutElsewhere(session);
    redirectSeeOther(response, '/console/security?notice=password-changed');
  }

  @Post('two-step/disable')
  @ConsoleRole('viewer')
  async disable(
    @CurrentConsoleSession() session: ConsoleSession,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ) {
    // The same check as a login's second step, throttled alike: a session left open is not enough.
    const result = await this.auth.checkSecondStep(session, formField(body, 'code') ?? '', request.ip ?? 'unknown');
    if (result.kind === 'throttled') {
      const error = secondStepThrottledMessage(response, session.locale, result);
      return this.render(request, response, 429, { session, notice: null, error });
    }
    if (result.kind === 'refused')
      return this.render(request, response, 400, {
        session,
        notice: null,
        error: consoleSecurityT(session.locale)('twoStep.wrongCode'),
      });
    await this.twoStep.disable(
      { id: session.member.id, merchantId: session.merchant.id },
      consoleActor(session, request),
    );
    await this.auth.signOutElsewhere(session);
    redirectSeeOther(response, '/console/security?notice=disabled');
  }

  private async render(
    request: Request,
    response: Response,
    status: number,
    model: Omit<SecurityModel, 'browserLocale'>,
  ) {
    const unusedRecoveryCodes = model.session.member.twoStep
      ? await this.twoStep.unusedRecoveryCodes(model.session.member.id)
      : 0;
    const browserLocale = negotiateLocale(request);
    sendPage(response, status, (nonce) => renderSecurity(nonce, { ...model, browserLocale, unusedRecoveryCodes }));
  }
}
