import type { EventView, PaymentStatus, WebhookAttemptView } from '@payhook/contracts';
import { html } from '../../../platform/html/html';
import { formatWon } from '../../pay-screen/format';
import { badge, canUse, consolePage, csrfField, messages, timeIn } from '../shared/console-layout.view';
import { moneyCard } from './console-payment-money.view';
import type { PaymentDetail } from './console-payments.service';
import { refundHistory, refundsCard, type HistoryLine, type RefundFormState } from '../refunds/console-refunds.view';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';

const HISTORY_TEXT: Record<PaymentStatus, string> = {
  pending: 'Created (pending)',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
  expired: 'Expired',
};

/** Enough of a response body to recognise it; the full first KiB stays in the API. */
const EXCERPT_CHARS = 300;

function attemptRow(attempt: WebhookAttemptView, zone: string) {
  const body = attempt.responseBody ?? '';
  const status = attempt.responseStatus;
  const ok = status !== null && status >= 200 && status < 300;
  // The dispatcher's error repeats a plain non-2xx status; show it only when it says more (timeout, refused…).
  const error = attempt.error && attempt.error !== `HTTP ${status}` ? attempt.error : null;
  return html`<tr>
    <td class="num">${attempt.number}</td>
    <td>${attempt.endpointId ? html`<code>${attempt.endpointId}</code>` : html`<span class="muted">—</span>`}</td>
    <td>${timeIn(attempt.startedAt, zone)}</td>
    <td class="num">${attempt.durationMs} ms</td>
    <td>
      ${status ?? null} ${badge(session.locale, ok ? 'succeeded' : 'failed')}
      ${error ? html`<br /><span class="muted">${error}</span>` : null}
    </td>
    <td>
      ${body ? html`<pre>${body.length > EXCERPT_CHARS ? `${body.slice(0, EXCERPT_CHARS)}…` : body}</pre>` : html`<span class="muted">—</span>`}
    </td>
  </tr>`;
}

function eventSection(event: EventView, model: PaymentPageModel) {
  const zone = model.session.merchant.timeZone;
  const attempts =
    event.attempts.length === 0
      ? html`<p class="muted">No delivery attempts yet.</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="Delivery attempts">
          <table>
            <thead>
              <tr>
                <th scope="col" class="num">#</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Time</th>
                <th scope="col" class="num">Duration</th>
                <th scope="col">Status</th>
                <th scope="col">Response</th>
              </tr>
            </thead>
            <tbody>
              ${event.attempts.map((attempt) => attemptRow(attempt, zone))}
            </tbody>
          </table>
        </div>`;
  return html`<section class="event" id="${event.id}" aria-label="Event ${event.id}">
    <h3><code>${event.id}</code> ${event.type}</h3>
    <dl>
      <dt>Created</dt>
      <dd>${timeIn(event.createdAt, zone)}</dd>
      <dt>Delivery</dt>
      <dd>${badge(session.locale, event.deliveryStatus)}</dd>
      ${event.undeliveredReason ? html`<dt>Not delivered</dt><dd>${event.undeliveredReason}</dd>` : null}
      ${event.deliveries.map(
        (delivery) =>
          html`<dt>To <code>${delivery.endpointId}</code></dt>
            <dd>
              ${badge(session.locale, delivery.status)}
              ${delivery.undeliveredReason ? html`<span class="muted">${delivery.undeliveredReason}</span>` : null}
            </dd>`,
      )}
    </dl>
    <h3>Delivery attempts of ${event.type}</h3>
    ${attempts}
    ${
      canUse(model.session, 'developer')
        ? html`<form
            method="post"
            action="/console/payments/${model.detail.payment.id}/events/${event.id}/redeliver"
            class="actions"
          >
            ${csrfField(model.session)}
            <input type="hidden" name="mode" value="${model.mode}" />
            <button type="submit">Redeliver</button>
          </form>`
        : null
    }
  </section>`;
}

export interface PaymentPageModel {
  session: ConsoleSession;
  mode: ConsoleMode;
  detail: PaymentDetail;
  notice: string | null;
  /** A refusal that is not about one field of the refund form (the payment cannot be refunded). */
  error: string | null;
  refundForm: RefundFormState;
}

/** The payment's own transitions and its refunds' steps, oldest first. */
function historyLines(detail: PaymentDetail): HistoryLine[] {
  const own = detail.history.map((entry) => ({ at: entry.at, text: HISTORY_TEXT[entry.status] }));
  // A stable sort: the payment's completion stays before a refund made in the same millisecond.
  return [...own, ...refundHistory(detail.refunds)].sort((a, b) => a.at.getTime() - b.at.getTime());
}

export function renderPayment(nonce: string, model: PaymentPageModel): string {
  const { detail, session, mode } = model;
  const { payment } = detail;
  const zone = session.merchant.timeZone;
  const body = html`<p><a href="/console/payments?mode=${mode}">← Payments</a></p>
    <h1>${formatWon(payment.amount)} · ${payment.orderId}</h1>
    <p class="zone">Times in ${zone}.</p>
    ${messages(model.notice, model.error)}
    <div class="columns">
      <div>
        <div class="card">
          <dl>
            <dt>Payment</dt>
            <dd><code>${payment.id}</code></dd>
            <dt>Status</dt>
            <dd>${badge(session.locale, detail.status)}</dd>
            <dt>Mode</dt>
            <dd>${payment.livemode ? 'live' : 'test'}</dd>
            <dt>Amount</dt>
            <dd>${formatWon(payment.amount)}</dd>
            <dt>Order</dt>
            <dd>${payment.orderId}</dd>
            <dt>Customer</dt>
            <dd>${payment.customerId}</dd>
            <dt>Created</dt>
            <dd>${timeIn(payment.createdAt, zone)}</dd>
            <dt>Completed</dt>
            <dd>${timeIn(payment.completedAt, zone)}</dd>
            <dt>Expires</dt>
            <dd>${timeIn(payment.expiresAt, zone)}</dd>
            <dt>Pay URL</dt>
            <dd><code>${detail.payUrl}</code></dd>
            <dt>Return URL</dt>
            <dd><code>${payment.returnUrl}</code></dd>
          </dl>
        </div>
        ${refundsCard(detail, session, mode, model.refundForm)} ${moneyCard(detail.money, zone)}
        <div class="card">
          <h2>State history</h2>
          <ol class="history">
            ${historyLines(detail).map((line) => html`<li>${line.text} · ${timeIn(line.at, zone)}</li>`)}
          </ol>
        </div>
      </div>
      <div class="card">
        <h2>Events</h2>
        ${
          detail.events.length === 0
            ? html`<p class="muted">No events yet: the payment sends one when it leaves pending.</p>`
            : detail.events.map((event) => eventSection(event, model))
        }
      </div>
    </div>`;
  return consolePage({ title: `${payment.orderId} · Payments`, nonce, session, section: 'payments', mode }, body);
}
