import { SHIPMENT_FIELD_MAX_CHARS } from '@payhook/contracts';
import { html, type SafeHtml } from '../../../platform/html/html';
import { badge, canUse, csrfField, timeIn } from '../shared/console-layout.view';
import type { PaymentDetail } from '../payments/console-payments.service';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';
import { initialShipmentForm, type ShipmentField, type ShipmentFormState } from './console-shipment-form';
import { consoleEscrowT, type ConsoleEscrowKey, type ConsoleEscrowT } from './messages';

type Escrow = NonNullable<PaymentDetail['payment']['escrow']>;

/** A labelled input with its hint and its error, both tied to it by aria-describedby. */
function field(t: ConsoleEscrowT, name: ShipmentField, state: ShipmentFormState, label: string) {
  const id = `shipment-${name}`;
  const error = state.errors[name];
  const describedBy = error ? `${id}-hint ${id}-error` : `${id}-hint`;
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <p class="hint" id="${id}-hint">${t('form.field.hint', { max: SHIPMENT_FIELD_MAX_CHARS })}</p>
    ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : null}
    <input
      type="text"
      id="${id}"
      name="${name}"
      value="${state.values[name]}"
      maxlength="${SHIPMENT_FIELD_MAX_CHARS}"
      autocomplete="off"
      required
      aria-describedby="${describedBy}"
      ${error ? html`aria-invalid="true"` : null}
    />
  </div>`;
}

/** The shipment form: a first registration while awaiting shipment, a correction while shipped. */
function shipmentForm(
  t: ConsoleEscrowT,
  paymentId: string,
  correction: boolean,
  session: ConsoleSession,
  mode: ConsoleMode,
  state: ShipmentFormState,
) {
  const invalid = Object.keys(state.errors).length > 0;
  return html`<form method="post" action="/console/payments/${paymentId}/escrow/shipment" class="shipment-form" novalidate>
    <h3>${t(correction ? 'form.correct.title' : 'form.ship.title')}</h3>
    ${correction ? html`<p class="hint">${t('form.correct.hint')}</p>` : null}
    ${invalid ? html`<p class="error" role="alert">${t('form.invalid')}</p>` : null}
    ${csrfField(session)}
    <input type="hidden" name="mode" value="${mode}" />
    ${field(t, 'carrier', state, t('form.carrier'))} ${field(t, 'trackingNumber', state, t('form.trackingNumber'))}
    <div class="actions">
      <button type="submit">${t(correction ? 'form.correct.submit' : 'form.ship.submit')}</button>
    </div>
  </form>`;
}

/** What happens next, by the escrow's state; a payment not yet paid (or never to be) has nothing to ship. */
function noteOf(escrow: Escrow, detail: PaymentDetail): ConsoleEscrowKey | null {
  switch (escrow.status) {
    case 'awaiting_shipment':
      if (detail.status === 'completed') return 'note.awaiting';
      return detail.status === 'pending' ? 'note.unpaid' : null;
    case 'shipped':
      return 'note.shipped';
    case 'confirmed':
      return 'note.confirmed';
    case 'rejected':
      return 'note.rejected';
  }
}

/** The escrow's facts that apply by now: the shipment once registered, then how it ended. */
function facts(t: ConsoleEscrowT, escrow: Escrow, zone: string): SafeHtml {
  const shipment =
    escrow.shippedAt === null
      ? null
      : html`<dt>${t('card.carrier')}</dt>
          <dd>${escrow.carrier}</dd>
          <dt>${t('card.trackingNumber')}</dt>
          <dd><code>${escrow.trackingNumber}</code></dd>
          <dt>${t('card.shippedAt')}</dt>
          <dd>${timeIn(escrow.shippedAt, zone)}</dd>`;
  const autoConfirm =
    escrow.status === 'shipped'
      ? html`<dt>${t('card.autoConfirmAt')}</dt>
          <dd>${timeIn(escrow.autoConfirmAt, zone)}</dd>`
      : null;
  const confirmed =
    escrow.confirmedAt === null
      ? null
      : html`<dt>${t('card.confirmedAt')}</dt>
          <dd>
            ${timeIn(escrow.confirmedAt, zone)}
            ${
              escrow.autoConfirmed === null
                ? null
                : html`<br /><span class="muted">${t('card.confirmedBy', { by: escrow.autoConfirmed ? 'auto' : 'buyer' })}</span>`
            }
          </dd>`;
  const rejected =
    escrow.rejectedAt === null
      ? null
      : html`<dt>${t('card.rejectedAt')}</dt>
          <dd>${timeIn(escrow.rejectedAt, zone)}</dd>
          <dt>${t('card.rejectReason')}</dt>
          <dd>${escrow.rejectReason}</dd>`;
  return html`${shipment} ${autoConfirm} ${confirmed} ${rejected}`;
}

/**
 * A payment's escrow (구매안전서비스), when it has one: its state and shipment, and for a developer or
 * owner the form to register the shipment (awaiting shipment) or correct it (shipped). The carrier,
 * tracking number and the buyer's reason are shown as typed, in whatever language they were written.
 */
export function escrowCard(
  detail: PaymentDetail,
  session: ConsoleSession,
  mode: ConsoleMode,
  state: ShipmentFormState | undefined,
): SafeHtml | null {
  const { escrow } = detail.payment;
  if (escrow === null) return null;
  const t = consoleEscrowT(session.locale);
  const note = noteOf(escrow, detail);
  const open = escrow.status === 'awaiting_shipment' || escrow.status === 'shipped';
  const form =
    open && detail.status === 'completed' && canUse(session, 'developer')
      ? shipmentForm(
          t,
          detail.payment.id,
          escrow.status === 'shipped',
          session,
          mode,
          state ?? initialShipmentForm(escrow),
        )
      : null;
  return html`<section class="card" id="escrow" aria-labelledby="escrow-title">
    <h2 id="escrow-title">${t('card.title')}</h2>
    <dl>
      <dt>${t('card.status')}</dt>
      <dd>${badge(t.locale, escrow.status)}</dd>
      ${facts(t, escrow, session.merchant.timeZone)}
    </dl>
    ${note ? html`<p class="muted">${t(note)}</p>` : null} ${form}
  </section>`;
}
