import { DEFAULT_ENABLED_EVENTS, EVENT_TYPES, type MerchantStatus } from '@payhook/contracts';
import { html } from '../../../platform/html/html';
import type { ApiKeyEntity, IssuedOwnKey } from '../../../accounts/merchants';
import type { IntegrationTestView } from '../../../webhooks/integration-tests';
import { MAX_URL_LENGTH } from '../../../platform/http/validators';
import {
  ENDPOINT_DESCRIPTION_MAX_CHARS,
  MAX_ENDPOINTS_PER_MODE,
  type WebhookEndpointRecord,
} from '../../../webhooks/endpoints';
import { RECOVER_DAYS, type DevelopersOverview } from './console-developers.service';
import { badge, canUse, consolePage, csrfField, messages, timeIn } from '../shared/console-layout.view';
import type { ConsoleMode, ConsoleSession } from '../shared/console-session';

/** Reload while an integration test runs, so its result appears without script. */

const STATUS_TEXT: Record<MerchantStatus, string> = {
  review: 'payhook is reviewing your account.',
  integrating:
    'Approved. Point the test webhook endpoint at your server and run the integration test; live mode opens when it passes.',
  live: 'Live: the integration test passed and live keys work.',
};

export interface DevelopersModel {
  session: ConsoleSession;
  overview: DevelopersOverview;
  notice: string | null;
  error: string | null;
  /** The form a refused change came from, with what was typed. */
  /** What a refused form held, shown again as typed. */
  rejected?: { mode: ConsoleMode; url: string; events: readonly string[] };
  /** A key just made or rolled: shown on this page once. */
  issuedKey?: IssuedOwnKey;
}

function goLiveCard(model: DevelopersModel) {
  const { session, overview } = model;
  const zone = session.merchant.timeZone;
  const runs = overview.runs.map(
    (run: IntegrationTestView) => html`<section class="event" aria-label="Integration test ${run.id}">
      <h3>${badge(session.locale, run.status)} <code>${run.id}</code></h3>
      <p class="muted">Started ${timeIn(run.startedAt, zone)} · finished ${timeIn(run.finishedAt, zone)}</p>
      <div class="scroll" tabindex="0" role="region" aria-label="Scenarios of ${run.id}">
        <table>
          <thead>
            <tr>
              <th scope="col">Scenario</th>
              <th scope="col">Status</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            ${run.scenarios.map(
              (scenario) => html`<tr>
                <td>${scenario.name}</td>
                <td>${badge(session.locale, scenario.status)}</td>
                <td>${scenario.detail || html`<span class="muted">—</span>`}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>`,
  );
  return html`<div class="card" id="go-live">
    <h2>Go live</h2>
    <p>${badge(session.locale, session.merchant.status)} ${STATUS_TEXT[session.merchant.status]}</p>
    <div class="actions">
      ${
        canUse(session, 'developer')
          ? html`<form method="post" action="/console/developers/integration-tests">
              ${csrfField(session)}
              <button type="submit">Run integration test</button>
            </form>`
          : null
      }
      ${
        // No self-refresh (WCAG 2.2.1): the merchant looks again when they like.
        overview.runs.some((run) => run.status === 'running')
          ? html`<a class="button secondary" href="/console/developers#go-live">Check the results</a>`
          : null
      }
    </div>
    ${runs.length === 0 ? html`<p class="muted">No integration test has run yet.</p>` : runs}
  </div>`;
}

/**
 * A mode's endpoints: the oldest (the one the integration test and the one-endpoint API use) with the
 * mode's URL form, then each further endpoint with its own controls, then a form to add one.
 */
function endpointsOfMode(model: DevelopersModel, mode: ConsoleMode) {
  const [oldest = null, ...others] = model.overview.endpoints[mode];
  const locked = mode === 'live' && model.session.merchant.status !== 'live';
  return html`${endpointCard(model, mode, oldest)}
  ${locked || !oldest ? null : others.map((endpoint) => furtherEndpoint(model, mode, endpoint))}
  ${locked || !oldest ? null : addEndpointForm(model, mode, others.length + 1)}`;
}

/** The event types sent, as checkboxes; `sent` are checked. */
function eventTypeChoices(sent: readonly string[]) {
  return html`<fieldset>
    <legend>Events sent</legend>
    <input type="hidden" name="events-listed" value="1" />
    ${EVENT_TYPES.map(
      (type) =>
        html`<label class="check"
          ><input type="checkbox" name="events" value="${type}" ${sent.includes(type) ? html`checked` : null} />
          ${type}</label
        >`,
    )}
  </fieldset>`;
}

/** Another endpoint of the mode: its health, settings, secret and actions, each on its own. */
function furtherEndpoint(model: DevelopersModel, mode: ConsoleMode, endpoint: WebhookEndpointRecord) {
  const { session } = model;
  const zone = session.merchant.timeZone;
  const name = endpoint.description ?? endpoint.url;
  const health =
    endpoint.status === 'disabled'
      ? html`<p>
          ${badge(session.locale, 'disabled')} Disabled ${timeIn(endpoint.disabledAt, zone)}: nothing is sent to it; its events are kept
          as failed.
        </p>`
      : endpoint.failingSince
        ? html`<p role="status">
            ${badge(session.locale, 'failing')} Failing since ${timeIn(endpoint.failingSince, zone)}: ${endpoint.consecutiveFailures}
            automatic attempt${endpoint.consecutiveFailures === 1 ? '' : 's'} in a row failed.
            ${endpoint.lastError ? html`Last error: <code>${endpoint.lastError}</code>.` : null}
          </p>`
        : html`<p>${badge(session.locale, 'enabled')} Receiving events.</p>`;
  return html`<section class="event" id="endpoint-${endpoint.id}" aria-label="${mode} webhook endpoint ${name}">
    <h4>${name} <code>${endpoint.id}</code></h4>
    <p>Sends ${endpoint.enabledEvents.join(', ')} to <code>${endpoint.url}</code>.</p>
    ${health}
    ${
      canUse(session, 'developer')
        ? furtherEndpointControls(model, mode, endpoint)
        : revealSecret(session, endpoint.signingSecret)
    }
  </section>`;
}

/** A further endpoint's settings form, secret and actions: for developers and owners. */
function furtherEndpointControls(model: DevelopersModel, mode: ConsoleMode, endpoint: WebhookEndpointRecord) {
  const { session } = model;
  const action = (path: string, label: string, style = 'secondary') =>
    html`<form method="post" action="/console/developers/endpoints/${endpoint.id}/${path}" class="inline">
      ${csrfField(session)}
      <input type="hidden" name="mode" value="${mode}" />
      <button type="submit" class="${style}">${label}</button>
    </form>`;
  return html`<details>
      <summary>Edit endpoint</summary>
      <form method="post" action="/console/developers/endpoints/${endpoint.id}" class="inline">
        ${csrfField(session)}
        <input type="hidden" name="mode" value="${mode}" />
        <label>URL <input type="url" name="url" value="${endpoint.url}" required maxlength="${MAX_URL_LENGTH}" /></label>
        <label
          >Description <input type="text" name="description" value="${endpoint.description ?? ''}" maxlength="${ENDPOINT_DESCRIPTION_MAX_CHARS}"
        /></label>
        ${eventTypeChoices(endpoint.enabledEvents)}
        <button type="submit">Save and enable</button>
      </form>
    </details>
    ${revealSecret(model.session, endpoint.signingSecret)}
    <div class="actions">
      ${endpoint.status === 'disabled' ? action('enable', 'Enable') : action('disable', 'Disable')}
      <a class="button secondary" href="/console/developers/endpoints/${endpoint.id}/rotate-secret?mode=${mode}"
        >Rotate signing secret…</a
      >
      <a class="button secondary" href="/console/developers/endpoints/${endpoint.id}/delete?mode=${mode}">Delete…</a>
    </div>`;
}

function addEndpointForm(model: DevelopersModel, mode: ConsoleMode, count: number) {
  if (!canUse(model.session, 'developer')) return null;
  if (count >= MAX_ENDPOINTS_PER_MODE) {
    return html`<p class="muted">This mode has ${MAX_ENDPOINTS_PER_MODE} endpoints, the most it can have.</p>`;
  }
  return html`<details id="add-endpoint-${mode}">
    <summary>Add another ${mode} endpoint</summary>
    <form method="post" action="/console/developers/endpoints" class="inline">
      ${csrfField(model.session)}
      <input type="hidden" name="mode" value="${mode}" />
      <label
        >URL <input type="url" name="url" required maxlength="${MAX_URL_LENGTH}" placeholder="https://accounting.example/webhooks"
      /></label>
      <label>Description <input type="text" name="description" maxlength="${ENDPOINT_DESCRIPTION_MAX_CHARS}" /></label>
      ${eventTypeChoices(DEFAULT_ENABLED_EVENTS)}
      <button type="submit">Add endpoint</button>
    </form>
  </details>`;
}

function endpointCard(model: DevelopersModel, mode: ConsoleMode, endpoint: WebhookEndpointRecord | null) {
  const { session } = model;
  const locked = mode === 'live' && session.merchant.status !== 'live';
  const typed = model.rejected?.mode === mode ? model.rejected.url : (endpoint?.url ?? '');
  const sent =
    model.rejected?.mode === mode ? model.rejected.events : (endpoint?.enabledEvents ?? DEFAULT_ENABLED_EVENTS);
  const changes = canUse(session, 'developer');
  const form = locked
    ? html`<p class="muted">Live mode opens once the integration test passes.</p>`
    : !changes
      ? null
      : html`<form method="post" action="/console/developers/webhook-endpoint" class="inline">
        ${csrfField(session)}
        <input type="hidden" name="mode" value="${mode}" />
        <label
          >${mode === 'test' ? 'Test' : 'Live'} webhook URL
          <input type="url" name="url" value="${typed}" required maxlength="${MAX_URL_LENGTH}" placeholder="https://shop.example/webhooks"
        /></label>
        ${eventTypeChoices(sent)}
        <button type="submit">Save endpoint</button>
      </form>`;
  const secret = endpoint
    ? html`${revealSecret(model.session, endpoint.signingSecret)}
        ${
          endpoint.previousSecretExpiresAt
            ? html`<p>
              The previous secret also signs the <code>webhook-signature</code> header until
              ${timeIn(endpoint.previousSecretExpiresAt, session.merchant.timeZone)}.
            </p>`
            : null
        }
        ${
          changes
            ? html`<div class="actions">
                <a class="button secondary" href="/console/developers/rotate-secret?mode=${mode}"
                  >Rotate signing secret…</a
                >
                ${
                  // Disabled, it is re-enabled from its health notice above.
                  endpoint.status === 'disabled'
                    ? null
                    : html`<form
                        method="post"
                        action="/console/developers/endpoints/${endpoint.id}/disable"
                        class="inline"
                      >
                        ${csrfField(session)}
                        <input type="hidden" name="mode" value="${mode}" />
                        <button type="submit" class="secondary">Disable</button>
                      </form>`
                }
                <a class="button secondary" href="/console/developers/endpoints/${endpoint.id}/delete?mode=${mode}"
                  >Delete…</a
                >
              </div>`
            : null
        }`
    : null;
  return html`<section class="event" id="endpoint-${mode}" aria-label="${mode} webhook endpoint">
    <h3 ${endpoint ? html`id="endpoint-${endpoint.id}"` : null}>
      ${mode === 'test' ? 'Test' : 'Live'} mode ${endpoint ? html`<code>${endpoint.id}</code>` : null}
    </h3>
    <p>
      ${
        endpoint
          ? html`Sends ${endpoint.enabledEvents.join(', ')} to <code>${endpoint.url}</code>; other events are recorded
            as skipped.`
          : html`<span class="muted">No endpoint set.</span>`
      }
    </p>
    ${endpoint && !locked ? healthBlock(model, mode, endpoint) : null} ${form} ${secret}
  </section>`;
}

/** Warned from the first failure, re-enabled and recovered here. */
function healthBlock(model: DevelopersModel, mode: ConsoleMode, endpoint: WebhookEndpointRecord) {
  const { session, overview } = model;
  const zone = session.merchant.timeZone;
  const lastError = endpoint.lastError ? html` Last error: <code>${endpoint.lastError}</code>.` : null;
  const changes = canUse(session, 'developer');
  const recoverForm = !changes
    ? null
    : html`<form method="post" action="/console/developers/recover" class="inline">
    ${csrfField(session)}
    <input type="hidden" name="mode" value="${mode}" />
    <label
      >Failed events of the last
      <select name="days">
        ${RECOVER_DAYS.map((days) => html`<option value="${days}">${days === 1 ? '24 hours' : `${days} days`}</option>`)}
      </select></label
    >
    <button type="submit" class="secondary">Send failed events again</button>
  </form>`;
  if (endpoint.status === 'disabled') {
    return html`<div class="error" role="alert">
        <p>
          ${badge(session.locale, 'disabled')} Disabled ${timeIn(endpoint.disabledAt, zone)}:
          ${
            endpoint.failingSince
              ? html`automatic attempts failed from ${timeIn(endpoint.failingSince, zone)} on.${lastError}`
              : 'by hand.'
          }
          New events are kept as failed and not sent.
        </p>
        ${
          changes
            ? html`<form method="post" action="/console/developers/webhook-endpoint/enable" class="actions">
                ${csrfField(session)}
                <input type="hidden" name="mode" value="${mode}" />
                <button type="submit">Re-enable endpoint</button>
              </form>`
            : null
        }
      </div>`;
  }
  if (endpoint.failingSince) {
    const disablesAt = new Date(endpoint.failingSince.getTime() + overview.disableAfterMs);
    return html`<div class="warning" role="status">
        <p>
          ${badge(session.locale, 'failing')} Failing since ${timeIn(endpoint.failingSince, zone)}:
          ${endpoint.consecutiveFailures} automatic attempt${endpoint.consecutiveFailures === 1 ? '' : 's'} in a row
          failed.${lastError} If it is still failing at ${timeIn(disablesAt, zone)}, payhook disables it.
        </p>
      </div>
      ${recoverForm}`;
  }
  return html`<p>${badge(session.locale, 'enabled')} Receiving events.</p>
    ${recoverForm}`;
}

/**
 * The signing secret behind a disclosure, for developers and owners only: with it a viewer (reads
 * only) could sign a forged payment.completed to the shop.
 */
function revealSecret(session: ConsoleSession, secret: string) {
  if (session.member.role === 'viewer') {
    return html`<p class="muted">The signing secret is shown to developers and owners.</p>`;
  }
  return html`<details>
    <summary>Reveal signing secret</summary>
    <p><code class="secret">${secret}</code></p>
  </details>`;
}

/** What a key is now: revoked, expired, expiring after a roll, or active. */
function keyState(key: ApiKeyEntity, zone: string) {
  if (key.revokedAt) return html`revoked ${timeIn(key.revokedAt, zone)}`;
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) return html`expired ${timeIn(key.expiresAt, zone)}`;
  if (key.expiresAt) return html`${badge(session.locale, 'expiring')} works until ${timeIn(key.expiresAt, zone)}`;
  return html`active`;
}

const isUsable = (key: ApiKeyEntity) => !key.revokedAt && (!key.expiresAt || key.expiresAt.getTime() > Date.now());

/** Days the old key of a roll keeps working (0 to 7). */
export const ROLL_OVERLAP_DAYS = [0, 1, 2, 3, 7] as const;

function keyControls(model: DevelopersModel, key: ApiKeyEntity) {
  const { session } = model;
  if (!isUsable(key) || session.member.role === 'viewer') return null;
  return html`<div><form method="post" action="/console/developers/keys/${key.id}/roll" class="inline">
      ${csrfField(session)}
      <label for="overlap-${key.id}">Old key keeps working for</label>
      <select id="overlap-${key.id}" name="overlapDays">
        ${ROLL_OVERLAP_DAYS.map(
          (days) => html`<option value="${days}" ${days === 1 ? html`selected` : null}>
            ${days === 0 ? 'no time: it stops now' : `${days} day${days === 1 ? '' : 's'}`}
          </option>`,
        )}
      </select>
      <button type="submit" class="secondary">Roll key …${key.keyLast4}</button>
    </form>
    <form method="post" action="/console/developers/keys/${key.id}/revoke" class="actions">
      ${csrfField(session)}
      <button type="submit" class="danger">Revoke key …${key.keyLast4} now</button>
    </form></div>`;
}

function keysCard(model: DevelopersModel) {
  const { session, overview } = model;
  const zone = session.merchant.timeZone;
  const keys = overview.keys;
  const canChange = session.member.role !== 'viewer';
  const rows = keys.map(
    (key) => html`<tr>
      <td data-label="Mode">${key.mode}</td>
      <td data-label="Key"><code>svc_${key.mode}_…${key.keyLast4}</code></td>
      <td data-label="Created">${timeIn(key.createdAt, zone)}</td>
      <td data-label="Last used">
        ${key.lastUsedAt ? timeIn(key.lastUsedAt, zone) : html`<span class="muted">never</span>`}
      </td>
      <td data-label="State">${keyState(key, zone)}</td>
      ${canChange ? html`<td data-label="Change">${keyControls(model, key)}</td>` : null}
    </tr>`,
  );
  const shown = model.issuedKey
    ? html`<div class="notice" role="status">
        <p>New ${model.issuedKey.mode} key. Copy it now: it is shown only this once.</p>
        <p><code data-new-api-key>${model.issuedKey.key}</code></p>
      </div>`
    : null;
  return html`<div class="card" id="api-keys">
    <h2>API keys</h2>
    ${shown}
    ${
      keys.length === 0
        ? html`<p class="muted">No API keys yet.</p>`
        : html`<div class="scroll" tabindex="0" role="region" aria-label="API keys">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Mode</th>
                  <th scope="col">Key</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">State</th>
                  ${canChange ? html`<th scope="col">Change</th>` : null}
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>
          </div>`
    }
    ${
      canChange
        ? html`<form method="post" action="/console/developers/keys" class="inline">
            ${csrfField(session)}
            <label for="new-key-mode">Mode of the new key</label>
            <select id="new-key-mode" name="mode">
              <option value="test">test</option>
              ${session.merchant.status === 'live' ? html`<option value="live">live</option>` : null}
            </select>
            <button type="submit">Create key</button>
          </form>`
        : null
    }
    <p class="muted">
      A key is shown in full only once, when it is made. Last use is recorded to the minute. A revoked or expired key
      stops working within 5 seconds.${session.merchant.status === 'live' ? '' : ' Live keys open once the integration test has passed.'}
    </p>
  </div>`;
}

export function renderDevelopers(nonce: string, model: DevelopersModel): string {
  const { session } = model;
  const body = html`<h1>Developers</h1>
    <p class="zone">Times in ${session.merchant.timeZone}.</p>
    ${messages(model.notice, model.error)} ${goLiveCard(model)}
    <div class="card" id="webhooks">
      <h2>Webhook endpoints</h2>
      ${endpointsOfMode(model, 'test')} ${endpointsOfMode(model, 'live')}
    </div>
    ${keysCard(model)}`;
  return consolePage({ title: 'Developers', nonce, session, section: 'developers' }, body);
}

/** How long the console lets the rotated-out secret keep signing webhook-signature. */
export const ROTATION_OVERLAPS = [
  { seconds: 0, label: 'None: the current secret stops at once' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours' },
  { seconds: 604_800, label: '7 days' },
] as const;

/** The overlap radios of a rotation's confirmation step, none chosen by default. */
function overlapChoices() {
  return html`<fieldset>
    <legend>Overlap of the current secret</legend>
    ${ROTATION_OVERLAPS.map(
      ({ seconds, label }) =>
        html`<label class="check"
          ><input type="radio" name="overlap" value="${String(seconds)}" ${seconds === 0 ? html`checked` : null} />
          ${label}</label
        >`,
    )}
  </fieldset>`;
}

export function renderRotateConfirm(nonce: string, session: ConsoleSession, mode: ConsoleMode): string {
  const body = html`<div class="card">
    <h1>Rotate the ${mode} signing secret?</h1>
    <p>
      A new secret signs every ${mode} webhook from now on, retries of older events included. During an overlap the
      current secret also signs the <code>webhook-signature</code> header (Standard Webhooks), so a receiver still on it
      keeps verifying; <code>Service-Signature</code> is signed with the new secret only.
    </p>
    <form method="post" action="/console/developers/rotate-secret" class="actions">
      ${csrfField(session)}
      <input type="hidden" name="mode" value="${mode}" />
      ${overlapChoices()}
      <button type="submit" class="danger">Rotate secret</button>
      <a class="button secondary" href="/console/developers#endpoint-${mode}">Cancel</a>
    </form>
  </div>`;
  return consolePage({ title: 'Rotate signing secret', nonce, session, section: 'developers' }, body);
}

/** A confirmation step for a change of one further endpoint (rotate its secret, or delete it). */
export function renderEndpointConfirm(
  nonce: string,
  session: ConsoleSession,
  mode: ConsoleMode,
  endpoint: WebhookEndpointRecord,
  action: 'rotate-secret' | 'delete',
): string {
  const name = endpoint.description ?? endpoint.url;
  const rotate = action === 'rotate-secret';
  const body = html`<div class="card">
    <h1>${rotate ? 'Rotate the signing secret of' : 'Delete'} ${name}?</h1>
    <p>
      ${
        rotate
          ? html`A new secret signs every webhook to <code>${endpoint.url}</code> from now on. During an overlap the
              current secret also signs the <code>webhook-signature</code> header.`
          : html`Nothing more is sent to <code>${endpoint.url}</code>; what it is still owed is kept as failed
              (<code>endpoint_deleted</code>). Its past deliveries stay in the events' history.`
      }
    </p>
    <form method="post" action="/console/developers/endpoints/${endpoint.id}/${action}" class="actions">
      ${csrfField(session)}
      <input type="hidden" name="mode" value="${mode}" />
      ${rotate ? overlapChoices() : null}
      <button type="submit" class="danger">${rotate ? 'Rotate secret' : 'Delete endpoint'}</button>
      <a class="button secondary" href="/console/developers#endpoint-${endpoint.id}">Cancel</a>
    </form>
  </div>`;
  return consolePage(
    { title: rotate ? 'Rotate signing secret' : 'Delete endpoint', nonce, session, section: 'developers' },
    body,
  );
}
