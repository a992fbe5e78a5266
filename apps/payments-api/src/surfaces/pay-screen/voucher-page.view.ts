import { html, type SafeHtml } from '../../platform/html/html';
import { MAX_PINS_PER_SUBMISSION, type PinOutcome, type RedemptionResult } from '../../money/vouchers';
import { formatWon } from './format';
import { outstandingOf, page, type PayScreenPayment } from './pay-screen.view';

const PIN_RESULT_TEXT: Record<PinOutcome['result'], string> = {
  accepted: 'applied',
  invalid: 'not a voucher PIN (12 to 20 digits)',
  unknown: 'not recognised',
  used: 'already used',
};

function resultNotice(result: RedemptionResult | undefined): SafeHtml | null {
  if (!result) return null;
  switch (result.kind) {
    case 'throttled':
      return html`<p class="alert" role="alert">
        Too many wrong PINs. Try again in ${Math.ceil(result.retryAfterSeconds / 60)} minutes.
      </p>`;
    case 'too_many_pins':
      return html`<p class="alert" role="alert">Enter 1 to ${MAX_PINS_PER_SUBMISSION} PINs at a time.</p>`;
    case 'not_payable':
      return html`<p class="alert" role="alert">This payment can no longer be paid.</p>`;
    case 'applied': {
      const allAccepted = result.pins.every((pin) => pin.result === 'accepted');
      return html`<div class="alert ${allAccepted ? 'ok' : ''}" role="status">
        <ul class="pins">
          ${result.pins.map(
            (pin) =>
              html`<li>
                PIN ending ${pin.pinLast4 || '—'}: ${PIN_RESULT_TEXT[pin.result]}${
                  pin.faceValue ? html` (${formatWon(pin.faceValue)})` : null
                }
              </li>`,
          )}
        </ul>
      </div>`;
    }
  }
}

/** The voucher form: its own page, apart from the waiting page's status and payment options. */
export function renderVoucherPage(
  payment: PayScreenPayment,
  csrfToken: string,
  nonce: string,
  result?: RedemptionResult,
): string {
  const body = html`<div class="card">
    ${payment.livemode ? null : html`<p class="banner" role="note">TEST MODE · no real money moves</p>`}
    <h1>Pay ${payment.merchantName} with gift vouchers</h1>
    <p class="amount" aria-label="Left to pay">${formatWon(outstandingOf(payment))}</p>
    ${
      payment.vouchersApplied > 0
        ? html`<p class="note">Already applied: ${formatWon(payment.vouchersApplied)} of ${formatWon(payment.amount)}.</p>`
        : null
    }
    ${resultNotice(result)}
    <form method="post" action="/p/${payment.suffix}/vouchers">
      <input type="hidden" name="csrf" value="${csrfToken}" />
      <label for="pins">Voucher PINs, one per line (up to ${MAX_PINS_PER_SUBMISSION})</label>
      <textarea id="pins" name="pins" inputmode="numeric" autocomplete="off" required></textarea>
      <button type="submit">Apply vouchers</button>
    </form>
    <p class="note">
      Vouchers are held for this payment and used once it is fully paid. If it is not paid before it expires they
      are released, untouched. Value above the amount is refunded after a check.
    </p>
    <p><a href="/p/${payment.suffix}">Back to the payment</a></p>
  </div>`;
  return page(`Vouchers · ${payment.merchantName} · payhook`, nonce, body);
}
