import { CASH_RECEIPT_TYPES, type CashReceiptType } from '@payhook/contracts';
import { html, type SafeHtml } from '../../platform/html/html';
import type { CashReceiptFormError } from './cash-receipt-form';
import type { PayScreenKey, PayScreenT } from './messages';
import type { PayScreenPayment } from './pay-screen.view';

/** The section's id: the form posts to it and the screen comes back to it (`#cash-receipt`). */
export const CASH_RECEIPT_SECTION = 'cash-receipt';

const TYPE_CHOICE: Record<CashReceiptType, PayScreenKey> = {
  income_deduction: 'receipt.type.income_deduction',
  expense_proof: 'receipt.type.expense_proof',
};

const TYPE_NAME: Record<CashReceiptType, PayScreenKey> = {
  income_deduction: 'receipt.kind.income_deduction',
  expense_proof: 'receipt.kind.expense_proof',
};

function errorText(t: PayScreenT, error: CashReceiptFormError): string {
  if (error.problem === 'type' || error.type === null) return t('receipt.error.type');
  if (error.problem === 'missing') return t('receipt.error.missing');
  return t(error.type === 'income_deduction' ? 'receipt.error.income_deduction' : 'receipt.error.expense_proof');
}

/**
 * The form: a type (소득공제 by mobile number, 지출증빙 by business registration number), the number,
 * a button. An error is shown beside the field it is about and tied to it (aria-describedby,
 * aria-invalid); the number typed is not sent back, only the type chosen.
 */
function form(
  t: PayScreenT,
  payment: PayScreenPayment,
  csrfToken: string,
  error: CashReceiptFormError | undefined,
): SafeHtml {
  const chosen = error?.type ?? payment.cashReceiptAsked?.type ?? 'income_deduction';
  const typeError = error && (error.problem === 'type' || error.type === null) ? errorText(t, error) : null;
  const numberError = error && !typeError ? errorText(t, error) : null;
  return html`<form method="post" action="/p/${payment.suffix}/cash-receipt#${CASH_RECEIPT_SECTION}">
    <input type="hidden" name="csrf" value="${csrfToken}" />
    <fieldset ${typeError ? html`aria-describedby="cash-receipt-type-error"` : null}>
      <legend>${t.html('receipt.type')}</legend>
      ${typeError ? html`<p class="field-error" id="cash-receipt-type-error">${typeError}</p>` : null}
      ${CASH_RECEIPT_TYPES.map(
        (type) =>
          html`<div class="choice">
            <input type="radio" id="cash-receipt-${type}" name="type" value="${type}" ${type === chosen ? html`checked` : null} />
            <label for="cash-receipt-${type}">${t.html(TYPE_CHOICE[type])}</label>
          </div>`,
      )}
    </fieldset>
    <label for="identity-number">${t.html('receipt.number')}</label>
    <p class="note" id="identity-number-hint">${t.html('receipt.hint')}</p>
    ${numberError ? html`<p class="field-error" id="identity-number-error">${numberError}</p>` : null}
    <input
      type="text"
      id="identity-number"
      name="identityNumber"
      inputmode="numeric"
      autocomplete="off"
      maxlength="40"
      required
      aria-describedby="${numberError ? 'identity-number-error identity-number-hint' : 'identity-number-hint'}"
      ${numberError ? html`aria-invalid="true"` : null}
    />
    <button type="submit">${t.html(payment.cashReceiptAsked ? 'receipt.update' : 'receipt.submit')}</button>
  </form>`;
}

/**
 * The cash receipt (현금영수증) section of a pending payment's screen. Once asked for, it shows what
 * was asked, the number masked as merchants see it, and keeps the form behind "change".
 */
export function cashReceiptSection(
  t: PayScreenT,
  payment: PayScreenPayment,
  csrfToken: string,
  error?: CashReceiptFormError,
): SafeHtml {
  const asked = payment.cashReceiptAsked;
  return html`<section id="${CASH_RECEIPT_SECTION}" aria-labelledby="cash-receipt-heading">
    <h2 id="cash-receipt-heading">${t.html('receipt.heading')}</h2>
    ${
      asked
        ? html`<div class="alert ok">
              <p class="asked" role="status">${t.html('receipt.asked')}</p>
              <dl>
                <dt>${t.html('receipt.asked.type')}</dt>
                <dd>${t.html(TYPE_NAME[asked.type])}</dd>
                <dt>${t.html('receipt.asked.number')}</dt>
                <dd><span class="code" id="cash-receipt-asked-number">${asked.identityNumber}</span></dd>
              </dl>
            </div>
            <details ${error ? html`open` : null}>
              <summary>${t.html('receipt.change')}</summary>
              ${form(t, payment, csrfToken, error)}
            </details>`
        : html`<p class="note">${t.html('receipt.intro')}</p>
            ${form(t, payment, csrfToken, error)}`
    }
  </section>`;
}
