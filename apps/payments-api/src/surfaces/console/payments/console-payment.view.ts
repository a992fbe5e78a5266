import type { EventView, Metadata, PaymentStatus, WebhookAttemptView } from '@payhook/contracts';
import { html, type SafeHtml } from '../../../platform/html/html';
import { formatWon } from '../../pay-screen/format';
import { cashReceiptsCard } from '../cash-receipts/console-cash-receipts.view';
import { escrowCard } from '../escrow/console-escrow.view';
import type { ShipmentFormState } from '../escrow/console-shipment-form';
import { badge, canUse, consolePage, csrfField, messages, timeIn } from '../shared/console-layout.view';
import { paymentBreakdown } from '../../../money/payments';
import { moneyCard } from './console-payment-money.view';
import type { PaymentDetail } from './console-payments.service';
import { refundHistory, refundsCard, type HistoryLine, type RefundFormState } from '../refunds/console-refunds.view';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';
import { consolePaymentsT, type ConsolePaymentsKey, type ConsolePaymentsT } from './messages';

const HISTORY_TEXT: Record<PaymentStatus, ConsolePaymentsKey> = {
  pending: 'payment.history.pending',
  completed: 'payment.history.completed',
  failed: 'payment.history.failed',
  canceled: 'payment.history.canceled',
  expired: 'payment.history.expired',
};

/**
 * Why an event or a delivery was not sent, as the API and the dispatcher store it: a code, or the
 * code and an English explanation after a colon, or (no endpoint) an English sentence.
 */
const UNDELIVERED_TEXT: ReadonlyMap<string, ConsolePaymentsKey> = new Map([
  ['No webhook endpoint is set for this mode; set one and redeliver the event.', 'undelivered.noEndpoint'],
  ['endpoint_disabled', 'undelivered.endpointDisabled'],
  ['endpoint_deleted', 'undelivered.endpointDeleted'],
  ['signing_secret_unreadable', 'undelivered.secretUnreadable'],
]);

/** A reason in the page's words; one this page does not know yet is shown as stored, in English. */
function undeliveredText(t: ConsolePaymentsT, reason: string): SafeHtml {
  const key = UNDELIVERED_TEXT.get(reason.split(':', 1)[0]);
  if (!key) return html`<span lang="en">${reason}</span>`;
  // Only the unreadable secret's message places the setting's name; the others ignore it.
  return t.html(key, { key: html`<code>SECRETS_KEY</code>` });
}

/** Enough of a response body to recognise it; the full first KiB stays in the API. */
const EXCERPT_CHARS = 300;

function attemptRow(t: ConsolePaymentsT, attempt: WebhookAttemptView, zone: string) {
  const body = attempt.responseBody ?? '';
  const status = attempt.responseStatus;
  const ok = status !== null && status >= 200 && status < 300;
  // The dispatcher's error repeats a plain non-2xx status; show it only when it says more (timeout, refused…).
  const error = attempt.error && attempt.error !== `HTTP ${status}` ? attempt.error : null;
  return html`<tr>
    <td class="num">${attempt.number}</td>
    <td>${attempt.endpointId ? html`<code>${attempt.endpointId}</code>` : html`<span class="muted">—</span>`}</td>
    <td>${timeIn(attempt.startedAt, zone)}</td>
    <td class="num">${t('event.attempts.ms', { ms: attempt.durationMs })}</td>
    <td>
      ${status ?? null} ${badge(t.locale, ok ? 'succeeded' : 'failed')}
      ${error ? html`<br /><span class="muted" lang="en">${error}</span>` : null}
    </td>
    <td>
      ${body ? html`<pre>${body.length > EXCERPT_CHARS ? `${body.slice(0, EXCERPT_CHARS)}…` : body}</pre>` : html`<span class="muted">—</span>`}
    </td>
  </tr>`;
}

function eventSection(t: ConsolePaymentsT, event: EventView, model: PaymentPageModel) {
  const zone = model.session.merchant.timeZone;
  const attempts =
    event.attempts.length === 0
      ? html`<p class="muted">${t('event.attempts.none')}</p>`
      : html`<div class="scroll" tabindex="0" role="region" aria-label="${t('event.attempts.region')}">
          <table>
            <thead>
              <tr>
                <th scope="col" class="num">#</th>
                <th scope="col">${t('event.attempts.endpoint')}</th>
                <th scope="col">${t('event.attempts.time')}</th>
                <th scope="col" class="num">${t('event.attempts.duration')}</th>
                <th scope="col">${t('event.attempts.status')}</th>
                <th scope="col">${t('event.attempts.response')}</th>
              </tr>
            </thead>
            <tbody>
              ${event.attempts.map((attempt) => attemptRow(t, attempt, zone))}
            </tbody>
          </table>
        </div>`;
  return html`<section class="event" id="${event.id}" aria-label="${t('event.label', { id: event.id })}">
    <h3><code>${event.id}</code> <code>${event.type}</code></h3>
    <dl>
      <dt>${t('event.created')}</dt>
      <dd>${timeIn(event.createdAt, zone)}</dd>
      <dt>${t('event.delivery')}</dt>
      <dd>${badge(t.locale, event.deliveryStatus)}</dd>
      ${
        event.undeliveredReason
          ? html`<dt>${t('event.notDelivered')}</dt><dd>${undeliveredText(t, event.undeliveredReason)}</dd>`
          : null
      }
      ${event.deliveries.map(
        (delivery) =>
          html`<dt>${t.html('event.to', { endpoint: html`<code>${delivery.endpointId}</code>` })}</dt>
            <dd>
              ${badge(t.locale, delivery.status)}
              ${
                delivery.undeliveredReason
                  ? html`<span class="muted">${undeliveredText(t, delivery.undeliveredReason)}</span>`
                  : null
              }
            </dd>`,
      )}
    </dl>
    <h3>${t.html('event.attempts', { type: html`<code>${event.type}</code>` })}</h3>
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
            <button type="submit">${t('event.redeliver')}</button>
          </form>`
        : null
    }
  </section>`;
}

/**
 * The merchant's own keys, as data: each key and value in <code>, in any language; a key order of
 * their own (sorted), whatever order the database keeps.
 */
function metadataCard(t: ConsolePaymentsT, metadata: Metadata) {
  const keys = Object.keys(metadata).sort();
  return html`<section class="card" aria-labelledby="metadata">
    <h2 id="metadata">${t('payment.metadata')}</h2>
    ${
      keys.length === 0
        ? html`<p class="muted">${t('payment.metadata.none')}</p>`
        : html`<dl class="metadata">
            ${keys.map(
              (key) =>
                html`<dt><code>${key}</code></dt>
                  <dd>
                    ${
                      metadata[key] === ''
                        ? html`<span class="muted">${t('payment.metadata.empty')}</span>`
                        : html`<code>${metadata[key]}</code>`
                    }
                  </dd>`,
            )}
          </dl>`
    }
  </section>`;
}

export interface PaymentPageModel {
  session: ConsoleSession;
  mode: ConsoleMode;
  detail: PaymentDetail;
  notice: ConsolePaymentsKey | null;
  /** A refusal that is not about one field of the refund form (the payment cannot be refunded), in the page's language. */
  error: string | null;
  refundForm: RefundFormState;
  /** The escrow's shipment form as typed, when it was refused; absent, as the escrow is now. */
  shipmentForm?: ShipmentFormState;
}

/** The payment's own transitions and its refunds' steps, oldest first. */
function historyLines(t: ConsolePaymentsT, detail: PaymentDetail): HistoryLine[] {
  const own = detail.history.map((entry) => ({ at: entry.at, text: t.html(HISTORY_TEXT[entry.status]) }));
  // A stable sort: the payment's completion stays before a refund made in the same millisecond.
  return [...own, ...refundHistory(t.locale, detail.refunds)].sort((a, b) => a.at.getTime() - b.at.getTime());
}

export function renderPayment(nonce: string, model: PaymentPageModel): string {
  const { detail, session, mode } = model;
  const { payment } = detail;
  const t = consolePaymentsT(session.locale);
  const zone = session.merchant.timeZone;
  // The split of the whole amount, as the API's reads show it (each refund carries its own).
  const split = paymentBreakdown(payment.amount, payment.taxFreeAmount);
  const body = html`<p><a href="/console/payments?mode=${mode}">${t('payment.back')}</a></p>
    <h1>${formatWon(payment.amount)} · ${payment.orderId}</h1>
    <p class="zone">${t('page.zone', { zone })}</p>
    ${messages(model.notice && t(model.notice), model.error)}
    <div class="columns">
      <div>
        <div class="card">
          <dl>
            <dt>${t('payment.id')}</dt>
            <dd><code>${payment.id}</code></dd>
            <dt>${t('payment.status')}</dt>
            <dd>${badge(t.locale, detail.status)}</dd>
            <dt>${t('payment.mode')}</dt>
            <dd>${t('page.mode', { mode: payment.livemode ? 'live' : 'test' })}</dd>
            <dt>${t('payment.amount')}</dt>
            <dd>${formatWon(payment.amount)}</dd>
            <dt>${t('payment.taxFree')}</dt>
            <dd>${formatWon(split.taxFreeAmount)}</dd>
            <dt>${t('payment.vat')}</dt>
            <dd>${formatWon(split.vat)}</dd>
            <dt>${t('payment.supplied')}</dt>
            <dd>${formatWon(split.suppliedAmount)}</dd>
            <dt>${t('payment.order')}</dt>
            <dd>${payment.orderId}</dd>
            <dt>${t('payment.customer')}</dt>
            <dd>${payment.customerId}</dd>
            <dt>${t('payment.created')}</dt>
            <dd>${timeIn(payment.createdAt, zone)}</dd>
            <dt>${t('payment.completed')}</dt>
            <dd>${timeIn(payment.completedAt, zone)}</dd>
            <dt>${t('payment.expires')}</dt>
            <dd>${timeIn(payment.expiresAt, zone)}</dd>
            <dt>${t('payment.payUrl')}</dt>
            <dd><code>${detail.payUrl}</code></dd>
            <dt>${t('payment.returnUrl')}</dt>
            <dd><code>${payment.returnUrl}</code></dd>
          </dl>
        </div>
        ${escrowCard(detail, session, mode, model.shipmentForm)} ${metadataCard(t, payment.metadata)} ${refundsCard(detail, session, mode, model.refundForm)}
        ${cashReceiptsCard(t.locale, detail.cashReceipts, zone)}
        ${moneyCard(t, detail.money, zone)}
        <div class="card">
          <h2>${t('payment.history')}</h2>
          <ol class="history">
            ${historyLines(t, detail).map((line) => html`<li>${line.text} · ${timeIn(line.at, zone)}</li>`)}
          </ol>
        </div>
      </div>
      <div class="card">
        <h2>${t('events.title')}</h2>
        ${
          detail.events.length === 0
            ? html`<p class="muted">${t('events.none')}</p>`
            : detail.events.map((event) => eventSection(t, event, model))
        }
      </div>
    </div>`;
  const title = t('payment.title', { order: payment.orderId });
  return consolePage({ title, nonce, session, section: 'payments', mode }, body);
}
