import { html, type SafeHtml } from '../../platform/html/html';
import { LOCALES, type Locale } from '../../platform/i18n/locale';
import { MAX_PINS_PER_SUBMISSION, type PinOutcome, type RedemptionResult } from '../../money/vouchers';
import { formatWon } from './format';
import { payScreenT, type PayScreenKey, type PayScreenT } from './messages';
import { EXAMPLE_PIN, languageSwitch, outstandingOf, page, testBanner, type PayScreenPayment } from './pay-screen.view';

const PIN_RESULT_TEXT: Record<PinOutcome['result'], PayScreenKey> = {
  accepted: 'vouchers.pin.accepted',
  invalid: 'vouchers.pin.invalid',
  unknown: 'vouchers.pin.unknown',
  used: 'vouchers.pin.used',
};

function resultNotice(t: PayScreenT, result: RedemptionResult | undefined): SafeHtml | null {
  if (!result) return null;
  switch (result.kind) {
    case 'throttled':
      return html`<p class="alert" role="alert">
        ${t.html('vouchers.throttled', { minutes: Math.ceil(result.retryAfterSeconds / 60) })}
      </p>`;
    case 'too_many_pins':
      return html`<p class="alert" role="alert">${t.html('vouchers.tooManyPins', { max: MAX_PINS_PER_SUBMISSION })}</p>`;
    case 'not_payable':
      return html`<p class="alert" role="alert">${t.html('vouchers.notPayable')}</p>`;
    case 'applied': {
      const allAccepted = result.pins.every((pin) => pin.result === 'accepted');
      return html`<div class="alert ${allAccepted ? 'ok' : ''}" role="status">
        <ul class="pins">
          ${result.pins.map(
            (pin) =>
              html`<li>
                ${t.html('vouchers.pin', { last4: pin.pinLast4 || '—', result: t(PIN_RESULT_TEXT[pin.result]) })}${
                  pin.faceValue ? html` (${formatWon(pin.faceValue)})` : null
                }
              </li>`,
          )}
        </ul>
      </div>`;
    }
  }
}

/** The form's label and the PIN format in each language: their values never change, so made once. */
const pinsText = new Map(
  LOCALES.map((locale) => {
    const t = payScreenT(locale);
    return [
      locale,
      {
        label: t.html('vouchers.pins.label', { max: MAX_PINS_PER_SUBMISSION }),
        format: t.html('vouchers.pins.format', { example: EXAMPLE_PIN }),
      },
    ];
  }),
);

/** The voucher form: its own page, apart from the waiting page's status and payment options. */
export function renderVoucherPage(
  payment: PayScreenPayment,
  csrfToken: string,
  nonce: string,
  locale: Locale,
  result?: RedemptionResult,
): string {
  const t = payScreenT(locale);
  const pins = pinsText.get(locale)!;
  const merchant = payment.merchantName;
  const path = `/p/${payment.suffix}`;
  const body = html`<div class="card">
    ${languageSwitch(t, `${path}/vouchers`)} ${testBanner(t, payment)}
    <h1>${t.html('vouchers.heading', { merchant })}</h1>
    <dl class="total">
      <dt>${t.html('vouchers.leftToPay')}</dt>
      <dd class="amount" id="left-to-pay">${formatWon(outstandingOf(payment))}</dd>
      ${
        payment.vouchersApplied > 0
          ? html`<dd class="note">
              ${t.html('vouchers.alreadyApplied', {
                applied: formatWon(payment.vouchersApplied),
                total: formatWon(payment.amount),
              })}
            </dd>`
          : null
      }
    </dl>
    ${resultNotice(t, result)}
    <form method="post" action="${path}/vouchers">
      <input type="hidden" name="csrf" value="${csrfToken}" />
      <label for="pins">${pins.label}</label>
      <p class="note" id="pins-format">${pins.format}</p>
      <textarea
        id="pins"
        name="pins"
        inputmode="numeric"
        autocomplete="off"
        aria-describedby="pins-format"
        required
      ></textarea>
      <button type="submit">${t.html('vouchers.apply')}</button>
    </form>
    <p class="note">${t.html('vouchers.note')}</p>
    <p><a href="${path}">${t.html('vouchers.back')}</a></p>
  </div>`;
  return page(t, t('vouchers.title', { merchant }), nonce, body);
}
