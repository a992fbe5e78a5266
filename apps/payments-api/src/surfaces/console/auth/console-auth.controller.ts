import { Body, Get, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Request, Response } from 'express';
import { PaymentsApiEnv } from '../../../platform/config/payments-api.env';
import { formField, sameToken } from '../../../platform/html/cookies';
import { CsrfTokens } from '../../../platform/html/csrf-tokens';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { CHOICE_VALID_MINUTES, ConsoleAuthService } from '../../../accounts/console-logins';
import { BeforeSecondStep, ConsoleRole } from '../shared/console-role.decorator';
import { renderConsoleError } from '../shared/console-layout.view';
import { renderChooseMerchant, renderLogin, renderSecondStep } from './console-login.view';
import { consoleLocale, LOGIN_CSRF_COOKIE, type ConsoleSession } from '../shared/console-session';
import { ConsoleSessionCookie } from '../shared/console-session-cookie';
import { ConsoleSessionGuard } from '../shared/console-session.guard';
import { secondStepThrottledMessage, throttledMessage } from '../shared/console-throttled';
import { CurrentConsoleSession } from '../shared/current-console-session.decorator';
import { consoleSharedT } from '../shared/messages';
import type { Locale } from '../../../platform/i18n/locale';
import { consoleAuthT, type ConsoleAuthKey } from './messages';

/** What the login page says after a step that sent the person here (a Map: only its own names count). */
const LOGIN_NOTICES = new Map<string, ConsoleAuthKey>([
  ['joined', 'login.notice.joined'],
  ['password_reset', 'login.notice.passwordReset'],
]);

/** What the login form's CSRF token is bound to (a session's own forms carry the session's token). */
const LOGIN_FORM = 'console:login';

/** Log in as a member of a merchant's team (password, then the two-step code when it is on), and log out. */
@ConsoleController('console')
export class ConsoleAuthController {
  private readonly loginCsrfTokens: CsrfTokens;

  constructor(
    private readonly auth: ConsoleAuthService,
    private readonly sessionCookie: ConsoleSessionCookie,
    @Inject(PaymentsApiEnv) env: PaymentsApiEnv,
  ) {
    this.loginCsrfTokens = new CsrfTokens(env.secretsKey.key, {
      name: LOGIN_CSRF_COOKIE,
      path: '/console/login',
      // Secure wherever payhook is served over https; plain http only on a local machine.
      secure: sessionCookie.secure,
    });
  }

  @Get('login')
  async showLogin(@Req() request: Request, @Res() response: Response): Promise<void> {
    const token = this.sessionCookie.read(request);
    const current = token ? await this.auth.session(token) : null;
    if (current) return redirectSeeOther(response, current.verified ? '/console/payments' : '/console/login/two-step');
    const locale = consoleLocale(request);
    const { notice: name } = request.query;
    const noticeKey = typeof name === 'string' ? LOGIN_NOTICES.get(name) : undefined;
    const notice = noticeKey && consoleAuthT(locale)(noticeKey);
    sendPage(response, 200, (nonce) => renderLogin(nonce, locale, { csrf: this.loginCsrf(request, response), notice }));
  }

  @Post('login')
  async login(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const locale = consoleLocale(request);
    const t = consoleAuthT(locale);
    // Signed double-submit (html/csrf-tokens.ts): no other site can sign someone in here (login CSRF).
    if (!this.loginCsrfTokens.verify(request, formField(body, 'csrf'), LOGIN_FORM))
      return this.formExpired(response, locale);
    const email = formField(body, 'email') ?? '';
    const result = await this.auth.login(email, formField(body, 'password') ?? '', request.ip ?? 'unknown');
    switch (result.kind) {
      case 'choose': {
        const form = { csrf: this.loginCsrf(request, response), choice: result.token, logins: result.logins };
        return sendPage(response, 200, (nonce) => renderChooseMerchant(nonce, locale, form));
      }
      case 'signed_in':
        this.sessionCookie.set(response, result.token);
        return redirectSeeOther(response, '/console/payments');
      case 'second_step':
        this.sessionCookie.set(response, result.token);
        return redirectSeeOther(response, '/console/login/two-step');
      case 'refused': {
        const form = { csrf: this.loginCsrf(request, response), email, error: t('login.refused') };
        return sendPage(response, 401, (nonce) => renderLogin(nonce, locale, form));
      }
      case 'throttled': {
        const form = {
          csrf: this.loginCsrf(request, response),
          email,
          error: throttledMessage(response, locale, result.until),
        };
        return sendPage(response, 429, (nonce) => renderLogin(nonce, locale, form));
      }
    }
  }

  /** The merchant chosen after a password that opened several: its session, as a login of it alone makes. */
  @Post('login/choose')
  async choose(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const locale = consoleLocale(request);
    if (!this.loginCsrfTokens.verify(request, formField(body, 'csrf'), LOGIN_FORM))
      return this.formExpired(response, locale);
    const result = await this.auth.choose(formField(body, 'choice') ?? '', formField(body, 'member') ?? '');
    switch (result.kind) {
      case 'signed_in':
        this.sessionCookie.set(response, result.token);
        return redirectSeeOther(response, '/console/payments');
      case 'second_step':
        this.sessionCookie.set(response, result.token);
        return redirectSeeOther(response, '/console/login/two-step');
      // A choice answers with a session or not at all: made already, expired, or not one it offered.
      case 'choose':
      case 'refused':
      case 'throttled': {
        const form = {
          csrf: this.loginCsrf(request, response),
          error: consoleAuthT(locale)('choose.gone', { minutes: CHOICE_VALID_MINUTES }),
        };
        return sendPage(response, 401, (nonce) => renderLogin(nonce, locale, form));
      }
    }
  }

  /** The second step of a login whose password was right: only a session still owing its code gets here. */
  @Get('login/two-step')
  async showSecondStep(@Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.pendingSession(request);
    if (!session) return redirectSeeOther(response, session === null ? '/console/login' : '/console/payments');
    sendPage(response, 200, (nonce) => renderSecondStep(nonce, session.locale, { csrf: session.csrfToken }));
  }

  @Post('login/two-step')
  async secondStep(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const session = await this.pendingSession(request);
    if (!session) return redirectSeeOther(response, session === null ? '/console/login' : '/console/payments');
    const { locale } = session;
    const t = consoleAuthT(locale);
    if (!sameToken(session.csrfToken, formField(body, 'csrf'))) return this.formExpired(response, locale);
    const result = await this.auth.secondStep(session, formField(body, 'code') ?? '', request.ip ?? 'unknown');
    switch (result.kind) {
      case 'signed_in':
        this.sessionCookie.set(response, result.token);
        return redirectSeeOther(response, '/console/payments');
      case 'refused': {
        const error = t('secondStep.wrongCode');
        return sendPage(response, 401, (nonce) => renderSecondStep(nonce, locale, { csrf: session.csrfToken, error }));
      }
      case 'gone':
        // Verified or ended by the same form sent twice: the cookie the other answer set stays.
        return redirectSeeOther(response, '/console/login');
      case 'ended': {
        this.sessionCookie.clear(response);
        const form = {
          csrf: this.loginCsrf(request, response),
          error: t('secondStep.ended'),
        };
        return sendPage(response, 401, (nonce) => renderLogin(nonce, locale, form));
      }
      case 'throttled': {
        const error = secondStepThrottledMessage(response, locale, result);
        return sendPage(response, 429, (nonce) => renderSecondStep(nonce, locale, { csrf: session.csrfToken, error }));
      }
    }
  }

  @Post('logout')
  @ConsoleRole('viewer')
  @BeforeSecondStep()
  @UseGuards(ConsoleSessionGuard)
  async logout(@CurrentConsoleSession() session: ConsoleSession, @Res() response: Response): Promise<void> {
    await this.auth.logout(session);
    this.sessionCookie.clear(response);
    redirectSeeOther(response, '/console/login');
  }

  /** The cookie's session when it still owes its second step; undefined when it owes nothing; null without one. */
  private async pendingSession(request: Request): Promise<ConsoleSession | null | undefined> {
    const token = this.sessionCookie.read(request);
    const session = token ? await this.auth.session(token) : null;
    if (!session) return null;
    return session.verified ? undefined : { ...session, locale: consoleLocale(request, session) };
  }

  /** A sign-in form whose CSRF token does not check out (stale, or not from this page). */
  private formExpired(response: Response, locale: Locale): void {
    const t = consoleAuthT(locale);
    sendPage(response, 403, (nonce) =>
      renderConsoleError(nonce, locale, consoleSharedT(locale)('error.formExpired.title'), t('login.formExpired')),
    );
  }

  private loginCsrf(request: Request, response: Response): string {
    return this.loginCsrfTokens.issue(request, response, LOGIN_FORM);
  }
}
