import { Body, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ConsoleController } from '../shared/console-controller.decorator';
import type { Request, Response } from 'express';
import { PaymentsApiEnv } from '../../../platform/config/payments-api.env';
import { formField } from '../../../platform/html/cookies';
import { CsrfTokens } from '../../../platform/html/csrf-tokens';
import { newNonce, redirectSeeOther, sendHtml } from '../../../platform/html/html-response';
import { renderConsoleError } from '../shared/console-layout.view';
import {
  ConsolePasswordResetService,
  RESET_LINK_VALID_MINUTES,
} from '../../../accounts/console-logins/console-password-reset.service';
import {
  renderForgotPassword,
  renderNewPassword,
  renderResetRequested,
  renderResetUnavailable,
} from './console-password-reset.view';
import { LOGIN_CSRF_COOKIE } from '../shared/console-session';
import { ConsoleSessionCookie } from '../shared/console-session-cookie';
import { resetThrottledMessage } from '../shared/console-throttled';
import { newPasswordProblem } from '../shared/new-password';

/** The token's shape (base64url of 32 bytes); anything else names no link and reaches no query. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What the form's CSRF token is bound to (the login page's cookie covers /console/login/…). */
const FORGOT_FORM = 'console:forgot';

/** What a reset link that cannot be used says, whichever way it cannot (used, expired, unknown, taken). */
const RESET_UNUSABLE = `This link was used already, has expired (links work for ${RESET_LINK_VALID_MINUTES} minutes) or is unknown. Ask for a new one on the login page.`;

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
    const nonce = newNonce();
    if (!this.resets.available) return sendHtml(response, 200, renderResetUnavailable(nonce), nonce);
    const form = { csrf: this.csrfTokens.issue(request, response, FORGOT_FORM) };
    sendHtml(response, 200, renderForgotPassword(nonce, form, RESET_LINK_VALID_MINUTES), nonce);
  }

  @Post('login/forgot')
  async requestLink(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const nonce = newNonce();
    if (!this.resets.available) return sendHtml(response, 200, renderResetUnavailable(nonce), nonce);
    if (!this.csrfTokens.verify(request, formField(body, 'csrf'), FORGOT_FORM)) {
      const page = renderConsoleError(nonce, 'Form expired', 'This form has expired. Open the login page again.');
      return sendHtml(response, 403, page, nonce);
    }
    const email = (formField(body, 'email') ?? '').slice(0, 254);
    const result = await this.resets.request(email, request.ip ?? 'unknown');
    if (result.kind === 'throttled') {
      const form = {
        csrf: this.csrfTokens.issue(request, response, FORGOT_FORM),
        email,
        error: resetThrottledMessage(response, result.until),
      };
      return sendHtml(response, 429, renderForgotPassword(nonce, form, RESET_LINK_VALID_MINUTES), nonce);
    }
    sendHtml(response, 200, renderResetRequested(nonce, email, RESET_LINK_VALID_MINUTES), nonce);
  }

  @Get('reset/:token')
  async showReset(@Param('token') token: string, @Res() response: Response): Promise<void> {
    const nonce = newNonce();
    const link = TOKEN.test(token) ? await this.resets.usable(token) : null;
    if (!link) return sendHtml(response, 404, renderConsoleError(nonce, 'Link not usable', RESET_UNUSABLE), nonce);
    sendHtml(response, 200, renderNewPassword(nonce, link), nonce);
  }

  @Post('reset/:token')
  async reset(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const nonce = newNonce();
    const unusable = () => sendHtml(response, 404, renderConsoleError(nonce, 'Link not usable', RESET_UNUSABLE), nonce);
    const link = TOKEN.test(token) ? await this.resets.usable(token) : null;
    if (!link) return unusable();
    const password = formField(body, 'password') ?? '';
    const problem = newPasswordProblem(password, formField(body, 'passwordAgain'));
    if (problem) return sendHtml(response, 400, renderNewPassword(nonce, { ...link, error: problem }), nonce);
    if (!(await this.resets.complete(token, password, request.ip ?? null))) return unusable();
    redirectSeeOther(response, '/console/login?notice=password_reset');
  }
}
