import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { formField } from '../../platform/html/cookies';
import { CsrfTokens } from '../../platform/html/csrf-tokens';
import { redirectSeeOther, sendPage } from '../../platform/html/html-response';
import { isLocale, negotiateLocale, type Locale } from '../../platform/i18n/locale';
import { EscrowPageService, type EscrowPageMove } from './escrow-page.service';
import { renderEscrowPage, REJECT_SECTION, type BuyerEscrowPage, type EscrowPageNotice } from './escrow-page.view';
import { renderForbidden, renderNotFound } from './pay-screen.view';

/** What a buyer's page form's CSRF token is bound to: the escrow its link opens. */
const pageOf = (token: string) => `escrow:${token}`;

/** The page's own address: the token is only ever in it, on our own site (never in a Location elsewhere). */
const pathOf = (token: string) => `/e/${encodeURIComponent(token)}`;

/** The visit's choice of language (the language link), as on the payment screen. */
const LANGUAGE_COOKIE = 'payhook_lang';

/**
 * The escrow buyer's page, beside the payment screen and built the same way: server-rendered HTML
 * without script, uncacheable and unframeable, Korean unless asked otherwise, each form once with
 * CSRF. The token in the path is a bearer secret: an unknown or malformed one gets the payment
 * screen's own 404, and the request log masks it (loggablePath).
 */
@Controller('e')
export class EscrowPageController {
  private readonly csrf: CsrfTokens;
  private readonly languageCookie: CookieOptions;

  constructor(
    private readonly escrowPage: EscrowPageService,
    @Inject(PaymentsApiEnv) env: PaymentsApiEnv,
  ) {
    const secure = env.PAY_URL.startsWith('https://');
    this.csrf = new CsrfTokens(env.secretsKey.key, { name: 'payhook_csrf', path: '/e/', secure });
    this.languageCookie = { httpOnly: true, sameSite: 'lax', secure, path: '/e/' };
  }

  @Get(':token')
  async show(
    @Param('token') token: string,
    @Query('lang') lang: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    if (isLocale(lang)) {
      response.cookie(LANGUAGE_COOKIE, lang, this.languageCookie);
      return redirectSeeOther(response, pathOf(token));
    }
    const locale = this.localeOf(request, response);
    const escrow = await this.escrowPage.find(token);
    if (!escrow) return this.sendNotFound(response, locale);
    this.sendEscrowPage(request, response, 200, token, escrow, locale);
  }

  /** A form's address opened again (a bookmark, the history after a refusal): the page itself. */
  @Get(':token/confirm')
  showConfirm(@Param('token') token: string, @Res() response: Response): void {
    redirectSeeOther(response, pathOf(token));
  }

  /** The reject form's address opened again (the history after an error): the page, at the form. */
  @Get(':token/reject')
  showReject(@Param('token') token: string, @Res() response: Response): void {
    redirectSeeOther(response, `${pathOf(token)}#${REJECT_SECTION}`);
  }

  @Post(':token/confirm')
  async confirm(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const locale = this.localeOf(request, response);
    if (!this.csrf.verify(request, formField(body, 'csrf'), pageOf(token))) return this.sendForbidden(response, locale);
    this.answer(request, response, token, locale, await this.escrowPage.confirm(token));
  }

  @Post(':token/reject')
  async reject(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const locale = this.localeOf(request, response);
    if (!this.csrf.verify(request, formField(body, 'csrf'), pageOf(token))) return this.sendForbidden(response, locale);
    this.answer(request, response, token, locale, await this.escrowPage.reject(token, formField(body, 'reason')));
  }

  /**
   * Moved: 303 back to the page, which shows the outcome. Refused: the page as it stands, 409, saying
   * nothing changed. A wrong reason: the page, 400, the error at the field and the text kept in it.
   */
  private answer(request: Request, response: Response, token: string, locale: Locale, move: EscrowPageMove): void {
    switch (move.kind) {
      case 'not_found':
        return this.sendNotFound(response, locale);
      case 'done':
        return redirectSeeOther(response, pathOf(token));
      case 'refused':
        return this.sendEscrowPage(request, response, 409, token, move.escrow, locale, { kind: 'refused' });
      case 'invalid_reason':
        return this.sendEscrowPage(request, response, 400, token, move.escrow, locale, {
          kind: 'invalid_reason',
          reason: move.reason,
        });
    }
  }

  private sendEscrowPage(
    request: Request,
    response: Response,
    status: number,
    token: string,
    escrow: BuyerEscrowPage,
    locale: Locale,
    notice?: EscrowPageNotice,
  ): void {
    // Only a shipped escrow has forms; a settled one sets no cookie.
    const csrfToken = escrow.status === 'shipped' ? this.csrf.issue(request, response, pageOf(token)) : '';
    const path = pathOf(token);
    sendPage(response, status, (nonce) => renderEscrowPage(escrow, { path, csrfToken, nonce, locale, notice }));
  }

  /** The payment screen's 404, byte for byte but the nonce: a token's page says nothing a suffix's does not. */
  private sendNotFound(response: Response, locale: Locale): void {
    sendPage(response, 404, (nonce) => renderNotFound(nonce, locale));
  }

  private sendForbidden(response: Response, locale: Locale): void {
    sendPage(response, 403, (nonce) => renderForbidden(nonce, locale, 'forbidden.escrowFormExpired'));
  }

  /** As on the payment screen: this visit's choice, else the browser's preference, else Korean. */
  private localeOf(request: Request, response: Response): Locale {
    const locale = negotiateLocale(request, LANGUAGE_COOKIE);
    response.setHeader('Vary', 'Accept-Language, Cookie');
    return locale;
  }
}
