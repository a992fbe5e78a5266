import { Body, Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { formField } from '../../platform/html/cookies';
import { CsrfTokens } from '../../platform/html/csrf-tokens';
import { newNonce, redirectSeeOther, sendHtml as send } from '../../platform/html/html-response';
import { returnUrlWith } from './format';
import { PayScreenService } from './pay-screen.service';
import {
  PAY_SCREEN_ACTIONS,
  renderForbidden,
  renderNotFound,
  renderPayScreen,
  type BankAccount,
  type PayScreenAction,
  type PayScreenPayment,
} from './pay-screen.view';
import { renderVoucherPage } from './voucher-page.view';

/** What a pay screen form's CSRF token is bound to: the payment it acts on. */
const pageOf = (suffix: string) => `pay:${suffix}`;

/**
 * The page a merchant's customer sees at payUrl. Plain server-rendered HTML without script; the
 * suffix in the path is the only key, so every answer is uncacheable and unframeable.
 */
@Controller('p')
export class PayScreenController {
  private readonly csrf: CsrfTokens;
  private readonly account: BankAccount;

  constructor(
    private readonly screen: PayScreenService,
    @Inject(PaymentsApiEnv) env: PaymentsApiEnv,
  ) {
    this.csrf = new CsrfTokens(env.secretsKey.key, {
      name: 'payhook_csrf',
      path: '/p/',
      secure: env.PAY_URL.startsWith('https://'),
    });
    this.account = {
      bankName: env.DEPOSIT_BANK_NAME,
      accountNumber: env.DEPOSIT_ACCOUNT_NUMBER,
      holder: env.DEPOSIT_ACCOUNT_HOLDER,
    };
  }

  @Get(':suffix')
  async show(@Param('suffix') suffix: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    const nonce = newNonce();
    const payment = await this.screen.find(suffix);
    if (!payment) return send(response, 404, renderNotFound(nonce), nonce);
    if (payment.status !== 'pending') return this.sendBack(response, payment, nonce);
    const page = renderPayScreen(payment, this.csrfToken(request, response, suffix), nonce, this.account);
    send(response, 200, page, nonce, [new URL(payment.returnUrl).origin]);
  }

  @Get(':suffix/vouchers')
  async showVouchers(
    @Param('suffix') suffix: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const nonce = newNonce();
    const payment = await this.screen.find(suffix);
    if (!payment) return send(response, 404, renderNotFound(nonce), nonce);
    if (payment.status !== 'pending') return this.sendBack(response, payment, nonce);
    const page = renderVoucherPage(payment, this.csrfToken(request, response, suffix), nonce);
    send(response, 200, page, nonce, [new URL(payment.returnUrl).origin]);
  }

  /** Declared before `:suffix/:action` so that it wins the route. */
  @Post(':suffix/vouchers')
  async submitVouchers(
    @Param('suffix') suffix: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const nonce = newNonce();
    if (!this.csrf.verify(request, formField(body, 'csrf'), pageOf(suffix))) {
      return send(response, 403, renderForbidden(nonce, 'This form has expired. Open the payment page again.'), nonce);
    }
    const pins = formField(body, 'pins') ?? '';
    const outcome = await this.screen.submitVouchers(suffix, pins, request.ip ?? 'unknown');
    switch (outcome.kind) {
      case 'not_found':
        return send(response, 404, renderNotFound(nonce), nonce);
      case 'redirect':
        return redirectSeeOther(response, outcome.location, [new URL(outcome.location).origin]);
      case 'page': {
        const status = outcome.result.kind === 'throttled' ? 429 : 200;
        if (outcome.result.kind === 'throttled') response.setHeader('Retry-After', outcome.result.retryAfterSeconds);
        const csrf = this.csrfToken(request, response, suffix);
        const page = renderVoucherPage(outcome.payment, csrf, nonce, outcome.result);
        send(response, status, page, nonce, [new URL(outcome.payment.returnUrl).origin]);
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
    const nonce = newNonce();
    if (!(PAY_SCREEN_ACTIONS as readonly string[]).includes(action)) {
      return send(response, 404, renderNotFound(nonce), nonce);
    }
    if (!this.csrf.verify(request, formField(body, 'csrf'), pageOf(suffix))) {
      return send(response, 403, renderForbidden(nonce, 'This form has expired. Open the payment page again.'), nonce);
    }
    const result = await this.screen.act(suffix, action as PayScreenAction);
    switch (result.kind) {
      case 'not_found':
        return send(response, 404, renderNotFound(nonce), nonce);
      case 'live_mode':
        return send(response, 403, renderForbidden(nonce, 'Live payments complete when the funds arrive.'), nonce);
      case 'redirect':
        // form-action also covers the 303 back to the merchant that follows a button.
        redirectSeeOther(response, result.location, [new URL(result.location).origin]);
    }
  }

  /**
   * A finished payment sends the user back; the body still shows the final state and a button
   * back, for anything that does not follow redirects.
   */
  private sendBack(response: Response, payment: PayScreenPayment, nonce: string): void {
    response.location(returnUrlWith(payment.returnUrl, payment));
    send(response, 303, renderPayScreen(payment, '', nonce, this.account), nonce);
  }

  /** Signed double-submit token, good for this payment's forms only (html/csrf-tokens.ts). */
  private csrfToken(request: Request, response: Response, suffix: string): string {
    return this.csrf.issue(request, response, pageOf(suffix));
  }
}
