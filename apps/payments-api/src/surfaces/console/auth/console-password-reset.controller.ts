import { Body, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Request, Response } from 'express';
import { PaymentsApiEnv } from '../../../platform/config/payments-api.env';
import { formField } from '../../../platform/html/cookies';
import { CsrfTokens } from '../../../platform/html/csrf-tokens';
import { redirectSeeOther, sendPage } from '../../../platform/html/html-response';
import { renderConsoleError } from '../shared/console-layout.view';
import { ConsolePasswordResetService, RESET_LINK_VALID_MINUTES } from '../../../accounts/console-logins';
import {
  renderForgotPassword,
  renderNewPassword,
  renderResetRequested,
  renderResetUnavailable,
} from './console-password-reset.view';
import { consoleLocale, LOGIN_CSRF_COOKIE } from '../shared/console-session';
import { consoleSharedT } from '../shared/messages';
import type { Locale } from '../../../platform/i18n/locale';
import { consoleAuthT } from './messages';
import { ConsoleSessionCookie } from '../shared/console-session-cookie';
import { resetThrottledMessage } from '../shared/console-throttled';
import { newPasswordProblem } from '../shared/new-password';

/** The token's shape (base64url of 32 bytes); anything else names no link and reaches no query. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What the form's CSRF token is bound to (the login page's cookie covers /console/login/…). */
const FORGOT_FORM = 'console:forgot';

/** What a reset link that cannot be used says, whichever way it cannot (used, expired, unknown, taken). */
function linkUnusable(response: Response, locale: Locale): void {
  const t = consoleAuthT(locale);
  const message = t('reset.unusable', { minutes: RESET_LINK_VALID_MINUTES });
  sendPage(response, 404, (nonce) => renderConsoleError(nonce, locale, t('reset.unusable.title'), message));
}

/**
 * A forgotten password: the login page's "Forgot your password?" asks for the address and e-mails a
 * single-use link; the link's page sets the new password. No session: the link is the credential.
 */
@ConsoleController('console')
export class ConsolePasswordResetController {
  private readonly csrfTokens: CsrfTokens;

  constructor(
    private readonly resets: ConsolePasswordResetService,
    sessionCookie: ConsoleSessionCookie,
    @Inject(PaymentsApiEnv) env: PaymentsApiEnv,
  ) {
    this.csrfTokens = new CsrfTokens(env.secretsKey.key, {
      name: LOGIN_CSRF_COOKIE,
      path: '/console/login',
      secure: sessionCookie.secure,
    });
  }

  @Get('login/forgot')
  showForgot(@Req() request: Request, @Res() response: Response): void {
    const locale = consoleLocale(request);
    if (!this.resets.available) return sendPage(response, 200, (nonce) => renderResetUnavailable(nonce, locale));
    const form = { csrf: this.csrfTokens.issue(request, response, FORGOT_FORM) };
    sendPage(response, 200, (nonce) => renderForgotPassword(nonce, locale, form, RESET_LINK_VALID_MINUTES));
  }

  @Post('login/forgot')
  async requestLink(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const locale = consoleLocale(request);
    if (!this.resets.available) return sendPage(response, 200, (nonce) => renderResetUnavailable(nonce, locale));
    if (!this.csrfTokens.verify(request, formField(body, 'csrf'), FORGOT_FORM)) {
      const title = consoleSharedT(locale)('error.formExpired.title');
      const message = consoleAuthT(locale)('secondStep.formExpired');
      return sendPage(response, 403, (nonce) => renderConsoleError(nonce, locale, title, message));
    }
    const email = (formField(body, 'email') ?? '').slice(0, 254);
    const result = await this.resets.request(email, request.ip ?? 'unknown', locale);
    if (result.kind === 'throttled') {
      const form = {
        csrf: this.csrfTokens.issue(request, response, FORGOT_FORM),
        email,
        error: resetThrottledMessage(response, locale, result.until),
      };
      return sendPage(response, 429, (nonce) => renderForgotPassword(nonce, locale, form, RESET_LINK_VALID_MINUTES));
    }
    sendPage(response, 200, (nonce) => renderResetRequested(nonce, locale, email, RESET_LINK_VALID_MINUTES));
  }

  @Get('reset/:token')
  async showReset(@Param('token') token: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const locale = consoleLocale(request);
    const link = TOKEN.test(token) ? await this.resets.usable(token) : null;
    if (!link) return linkUnusable(response, locale);
    sendPage(response, 200, (nonce) => renderNewPassword(nonce, locale, link));
  }

  @Post('reset/:token')
  async reset(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const locale = consoleLocale(request);
    const link = TOKEN.test(token) ? await this.resets.usable(token) : null;
    if (!link) return linkUnusable(response, locale);
    const password = formField(body, 'password') ?? '';
    const problem = newPasswordProblem(locale, password, formField(body, 'passwordAgain'));
    if (problem)
      return sendPage(response, 400, (nonce) => renderNewPassword(nonce, locale, { ...link, error: problem }));
    if (!(await this.resets.complete(token, password, request.ip ?? null))) return linkUnusable(response, locale);
    redirectSeeOther(response, '/console/login?notice=password_reset');
  }
}
