import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { formField } from '../../platform/html/cookies';
import { CsrfTokens } from '../../platform/html/csrf-tokens';
import { redirectSeeOther, sendPage } from '../../platform/html/html-response';
import { isLocale, negotiateLocale, type Locale } from '../../platform/i18n/locale';
import { CASH_RECEIPT_SECTION } from './cash-receipt-form.view';
import { returnUrlWith } from './format';
import { PayScreenService } from './pay-screen.service';
import {
  PAY_SCREEN_ACTIONS,
  renderForbidden,
  renderNotFound,
  renderPayScreen,
  type BankAccount,
  type ForbiddenReason,
  type PayScreenAction,
  type PayScreenPayment,
} from './pay-screen.view';
import { renderVoucherPage } from './voucher-page.view';

/** What a pay screen form's CSRF token is bound to: the payment it acts on. */
const pageOf = (suffix: string) => `pay:${suffix}`;

/** The visit's choice of language (the language link), kept until the browser closes. */
const LANGUAGE_COOKIE = 'payhook_lang';

/**
 * The page a merchant's customer sees at payUrl. Plain server-rendered HTML without script; the
 * suffix in the path is the only key, so every answer is uncacheable and unframeable.
 */
@Controller('p')
export class PayScreenController {
  private readonly csrf: CsrfTokens;
  private readonly account: BankAccount;
  private readonly languageCookie: CookieOptions;

  constructor(
    private readonly screen: PayScreenService,
    @Inject(PaymentsApiEnv) env: PaymentsApiEnv,
  ) {
    this.csrf = new CsrfTokens(env.secretsKey.key, {
      name: 'payhook_csrf',
      path: '/p/',
      secure: env.PAY_URL.startsWith('https://'),
    });
    // A session cookie (no Max-Age) for the screen's paths only; Lax, so it rides along the 303 back here.
    this.languageCookie = {
      httpOnly: true,
      sameSite: 'lax',
      secure: env.PAY_URL.startsWith('https://'),
      path: '/p/',
    };
    this.account = {
      bankName: env.DEPOSIT_BANK_NAME,
      accountNumber: env.DEPOSIT_ACCOUNT_NUMBER,
      holder: env.DEPOSIT_ACCOUNT_HOLDER,
    };
  }

  @Get(':suffix')
  async show(
    @Param('suffix') suffix: string,
    @Query('lang') lang: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    if (isLocale(lang)) return this.switchLanguage(response, lang, `/p/${encodeURIComponent(suffix)}`);
    const locale = this.localeOf(request, response);
    const payment = await this.screen.find(suffix);
    if (!payment) return this.sendNotFound(response, locale);
    if (payment.status !== 'pending') return this.sendBack(response, payment, locale);
    const csrf = this.csrfToken(request, response, suffix);
    sendPage(response, 200, (nonce) => renderPayScreen(payment, csrf, nonce, this.account, locale), [
      new URL(payment.returnUrl).origin,
    ]);
  }

  @Get(':suffix/vouchers')
  async showVouchers(
    @Param('suffix') suffix: string,
    @Query('lang') lang: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    if (isLocale(lang)) return this.switchLanguage(response, lang, `/p/${encodeURIComponent(suffix)}/vouchers`);
    const locale = this.localeOf(request, response);
    const payment = await this.screen.find(suffix);
    if (!payment) return this.sendNotFound(response, locale);
    if (payment.status !== 'pending') return this.sendBack(response, payment, locale);
    const csrf = this.csrfToken(request, response, suffix);
    sendPage(response, 200, (nonce) => renderVoucherPage(payment, csrf, nonce, locale), [
      new URL(payment.returnUrl).origin,
    ]);
  }

  /** Declared before `:suffix/:action` so that it wins the route. */
  @Post(':suffix/vouchers')
  async submitVouchers(
    @Param('suffix') suffix: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const locale = this.localeOf(request, response);
    if (!this.csrf.verify(request, formField(body, 'csrf'), pageOf(suffix))) {
      return this.sendForbidden(response, locale, 'forbidden.formExpired');
    }
    const pins = formField(body, 'pins') ?? '';
    const outcome = await this.screen.submitVouchers(suffix, pins, request.ip ?? 'unknown');
    switch (outcome.kind) {
      case 'not_found':
        return this.sendNotFound(response, locale);
      case 'redirect':
        return redirectSeeOther(response, outcome.location, [new URL(outcome.location).origin]);
      case 'page': {
        const status = outcome.result.kind === 'throttled' ? 429 : 200;
        if (outcome.result.kind === 'throttled') response.setHeader('Retry-After', outcome.result.retryAfterSeconds);
        const csrf = this.csrfToken(request, response, suffix);
        sendPage(response, status, (nonce) => renderVoucherPage(outcome.payment, csrf, nonce, locale, outcome.result), [
          new URL(outcome.payment.returnUrl).origin,
        ]);
      }
    }
  }

  /**
   * The address a form sent back with an error is shown at, opened again (a bookmark, the history):
   * the screen's section, where the form is.
   */
  @Get(':suffix/cash-receipt')
  showCashReceipt(@Param('suffix') suffix: string, @Res() response: Response): void {
    redirectSeeOther(response, `/p/${encodeURIComponent(suffix)}#${CASH_RECEIPT_SECTION}`);
  }

  /**
   * The cash receipt form, declared before `:suffix/:action` so that it wins the route. Kept: 303 back
   * to the screen's section, which shows it masked; wrong: the screen again, 400, the error at the field.
   */
  @Post(':suffix/cash-receipt')
  async askCashReceipt(
    @Param('suffix') suffix: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const locale = this.localeOf(request, response);
    if (!this.csrf.verify(request, formField(body, 'csrf'), pageOf(suffix))) {
      return this.sendForbidden(response, locale, 'forbidden.formExpired');
    }
    const outcome = await this.screen.askCashReceipt(
      suffix,
      formField(body, 'type'),
      formField(body, 'identityNumber'),
    );
    switch (outcome.kind) {
      case 'not_found':
        return this.sendNotFound(response, locale);
      case 'asked':
        return redirectSeeOther(response, `/p/${encodeURIComponent(suffix)}#${CASH_RECEIPT_SECTION}`);
      case 'redirect':
        return redirectSeeOther(response, outcome.location, [new URL(outcome.location).origin]);
      case 'invalid': {
        const csrf = this.csrfToken(request, response, suffix);
        const { payment, error } = outcome;
        sendPage(
          response,
          400,
          (nonce) => renderPayScreen(payment, csrf, nonce, this.account, locale, new Date(), error),
          [new URL(payment.returnUrl).origin],
        );
      }
    }
  }

  @Post(':suffix/:action')
  async act(
    @Param('suffix') suffix: string,
    @Param('action') action: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const locale = this.localeOf(request, response);
    if (!(PAY_SCREEN_ACTIONS as readonly string[]).includes(action)) return this.sendNotFound(response, locale);
    if (!this.csrf.verify(request, formField(body, 'csrf'), pageOf(suffix))) {
      return this.sendForbidden(response, locale, 'forbidden.formExpired');
    }
    const result = await this.screen.act(suffix, action as PayScreenAction);
    switch (result.kind) {
      case 'not_found':
        return this.sendNotFound(response, locale);
      case 'live_mode':
        return this.sendForbidden(response, locale, 'forbidden.liveComplete');
      case 'redirect':
        // form-action also covers the 303 back to the merchant that follows a button.
        redirectSeeOther(response, result.location, [new URL(result.location).origin]);
    }
  }

  /**
   * A finished payment sends the user back; the body still shows the final state and a button
   * back, for anything that does not follow redirects.
   */
  private sendBack(response: Response, payment: PayScreenPayment, locale: Locale): void {
    response.location(returnUrlWith(payment.returnUrl, payment));
    sendPage(response, 303, (nonce) => renderPayScreen(payment, '', nonce, this.account, locale));
  }

  private sendNotFound(response: Response, locale: Locale): void {
    sendPage(response, 404, (nonce) => renderNotFound(nonce, locale));
  }

  private sendForbidden(response: Response, locale: Locale, reason: ForbiddenReason): void {
    sendPage(response, 403, (nonce) => renderForbidden(nonce, locale, reason));
  }

  /**
   * Korean unless this visit chose otherwise or the browser prefers English (platform/i18n/locale.ts);
   * the answer says what it was chosen by (its Content-Language comes from the page's lang).
   */
  private localeOf(request: Request, response: Response): Locale {
    const locale = negotiateLocale(request, LANGUAGE_COOKIE);
    response.setHeader('Vary', 'Accept-Language, Cookie');
    return locale;
  }

  /** `?lang=en` on a page: kept for the visit, then the same page again without the query. */
  private switchLanguage(response: Response, locale: Locale, path: string): void {
    response.cookie(LANGUAGE_COOKIE, locale, this.languageCookie);
    redirectSeeOther(response, path);
  }

  /** Signed double-submit token, good for this payment's forms only (html/csrf-tokens.ts). */
  private csrfToken(request: Request, response: Response, suffix: string): string {
    return this.csrf.issue(request, response, pageOf(suffix));
  }
}
