import { Body, Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { formField } from '../../platform/html/cookies';
import { CsrfTokens } from '../../platform/html/csrf-tokens';
import { redirectSeeOther, sendPage } from '../../platform/html/html-response';
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
    const payment = await this.screen.find(suffix);
    if (!payment) return sendPage(response, 404, renderNotFound);
    if (payment.status !== 'pending') return this.sendBack(response, payment);
    const csrf = this.csrfToken(request, response, suffix);
    sendPage(response, 200, (nonce) => renderPayScreen(payment, csrf, nonce, this.account), [
      new URL(payment.returnUrl).origin,
    ]);
  }

  @Get(':suffix/vouchers')
  async showVouchers(
    @Param('suffix') suffix: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const payment = await this.screen.find(suffix);
    if (!payment) return sendPage(response, 404, renderNotFound);
    if (payment.status !== 'pending') return this.sendBack(response, payment);
    const csrf = this.csrfToken(request, response, suffix);
    sendPage(response, 200, (nonce) => renderVoucherPage(payment, csrf, nonce), [new URL(payment.returnUrl).origin]);
  }

  /** Declared before `:suffix/:action` so that it wins the route. */
  @Post(':suffix/vouchers')
  async submitVouchers(
    @Param('suffix') suffix: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    if (!this.csrf.verify(request, formField(body, 'csrf'), pageOf(suffix))) {
      return sendPage(response, 403, (nonce) =>
        renderForbidden(nonce, 'This form has expired. Open the payment page again.'),
      );
    }
    const pins = formField(body, 'pins') ?? '';
    const outcome = await this.screen.submitVouchers(suffix, pins, request.ip ?? 'unknown');
    switch (outcome.kind) {
      case 'not_found':
        return sendPage(response, 404, renderNotFound);
      case 'redirect':
        return redirectSeeOther(response, outcome.location, [new URL(outcome.location).origin]);
      case 'page': {
        const status = outcome.result.kind === 'throttled' ? 429 : 200;
        if (outcome.result.kind === 'throttled') response.setHeader('Retry-After', outcome.result.retryAfterSeconds);
        const csrf = this.csrfToken(request, response, suffix);
        sendPage(response, status, (nonce) => renderVoucherPage(outcome.payment, csrf, nonce, outcome.result), [
          new URL(outcome.payment.returnUrl).origin,
        ]);
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
    if (!(PAY_SCREEN_ACTIONS as readonly string[]).includes(action)) {
      return sendPage(response, 404, renderNotFound);
    }
    if (!this.csrf.verify(request, formField(body, 'csrf'), pageOf(suffix))) {
      return sendPage(response, 403, (nonce) =>
        renderForbidden(nonce, 'This form has expired. Open the payment page again.'),
      );
    }
    const result = await this.screen.act(suffix, action as PayScreenAction);
    switch (result.kind) {
      case 'not_found':
        return sendPage(response, 404, renderNotFound);
      case 'live_mode':
        return sendPage(response, 403, (nonce) =>
          renderForbidden(nonce, 'Live payments complete when the funds arrive.'),
        );
      case 'redirect':
        // form-action also covers the 303 back to the merchant that follows a button.
        redirectSeeOther(response, result.location, [new URL(result.location).origin]);
    }
  }

  /**
   * A finished payment sends the user back; the body still shows the final state and a button
   * back, for anything that does not follow redirects.
   */
  private sendBack(response: Response, payment: PayScreenPayment): void {
    response.location(returnUrlWith(payment.returnUrl, payment));
    sendPage(response, 303, (nonce) => renderPayScreen(payment, '', nonce, this.account));
  }

  /** Signed double-submit token, good for this payment's forms only (html/csrf-tokens.ts). */
  private csrfToken(request: Request, response: Response, suffix: string): string {
    return this.csrf.issue(request, response, pageOf(suffix));
  }
}
