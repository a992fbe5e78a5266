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
import { developersT, type DevelopersKey, type DevelopersT } from './messages';

const STATUS_TEXT: Record<MerchantStatus, DevelopersKey> = {
  review: 'goLive.status.review',
  integrating: 'goLive.status.integrating',
  live: 'goLive.status.live',
};

/** The header names a rotation's texts speak of: code, the same in every language. */
const SIGNATURE_HEADER = html`<code>webhook-signature</code>`;

export interface DevelopersModel {
  session: ConsoleSession;
  overview: DevelopersOverview;
  notice: string | null;
  error: string | null;
  /** What a refused form held, shown again as typed. */
  rejected?: { mode: ConsoleMode; url: string; events: readonly string[] };
  /** A key just made or rolled: shown on this page once. */
  issuedKey?: IssuedOwnKey;
}

function goLiveCard(t: DevelopersT, model: DevelopersModel) {
  const { session, overview } = model;
  const zone = session.merchant.timeZone;
  const runs = overview.runs.map(
    (run: IntegrationTestView) => html`<section class="event" aria-label="${t('run.label', { id: run.id })}">
      <h3>${badge(t.locale, run.status)} <code>${run.id}</code></h3>
      <p class="muted">
        ${t.html('run.times', { started: timeIn(run.startedAt, zone), finished: timeIn(run.finishedAt, zone) })}
      </p>
      <div class="scroll" tabindex="0" role="region" aria-label="${t('run.scenarios', { id: run.id })}">
        <table>
          <thead>
            <tr>
              <th scope="col">${t('run.scenario')}</th>
              <th scope="col">${t('run.status')}</th>
              <th scope="col">${t('run.detail')}</th>
            </tr>
          </thead>
          <tbody>
            ${run.scenarios.map(
              (scenario) => html`<tr>
                <td>${t(`run.scenario.${scenario.name}`)}</td>
                <td>${badge(t.locale, scenario.status)}</td>
                ${
                  // The runner's words, as the API returns them: English in every language.
                  scenario.detail
                    ? html`<td lang="en">${scenario.detail}</td>`
                    : html`<td><span class="muted">—</span></td>`
                }
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>`,
  );
  return html`<div class="card" id="go-live">
    <h2>${t('goLive.heading')}</h2>
    <p>${badge(t.locale, session.merchant.status)} ${t(STATUS_TEXT[session.merchant.status])}</p>
    <div class="actions">
      ${
        canUse(session, 'developer')
          ? html`<form method="post" action="/console/developers/integration-tests">
              ${csrfField(session)}
              <button type="submit">${t('goLive.run')}</button>
            </form>`
          : null
      }
      ${
        // No self-refresh (WCAG 2.2.1): the merchant looks again when they like.
        overview.runs.some((run) => run.status === 'running')
          ? html`<a class="button secondary" href="/console/developers#go-live">${t('goLive.check')}</a>`
          : null
      }
    </div>
    ${runs.length === 0 ? html`<p class="muted">${t('goLive.none')}</p>` : runs}
  </div>`;
}

/**
 * A mode's endpoints: the oldest (the one the integration test and the one-endpoint API use) with the
 * mode's URL form, then each further endpoint with its own controls, then a form to add one.
 */
function endpointsOfMode(t: DevelopersT, model: DevelopersModel, mode: ConsoleMode) {
  const [oldest = null, ...others] = model.overview.endpoints[mode];
  const locked = mode === 'live' && model.session.merchant.status !== 'live';
  return html`${endpointCard(t, model, mode, oldest)}
  ${locked || !oldest ? null : others.map((endpoint) => furtherEndpoint(t, model, mode, endpoint))}
  ${locked || !oldest ? null : addEndpointForm(t, model, mode, others.length + 1)}`;
}

/** The event types sent, as checkboxes; `sent` are checked. */
function eventTypeChoices(t: DevelopersT, sent: readonly string[]) {
  return html`<fieldset>
    <legend>${t('endpoint.events')}</legend>
    <input type="hidden" name="events-listed" value="1" />
    ${EVENT_TYPES.map(
      (type) =>
        html`<label class="check"
          ><input type="checkbox" name="events" value="${type}" ${sent.includes(type) ? html`checked` : null} />
          <code>${type}</code></label
        >`,
    )}
  </fieldset>`;
}

/** Another endpoint of the mode: its health, settings, secret and actions, each on its own. */
function furtherEndpoint(t: DevelopersT, model: DevelopersModel, mode: ConsoleMode, endpoint: WebhookEndpointRecord) {
  const { session } = model;
  const zone = session.merchant.timeZone;
  const name = endpoint.description ?? endpoint.url;
  const health =
    endpoint.status === 'disabled'
      ? html`<p>
          ${badge(t.locale, 'disabled')} ${t.html('health.disabledNothingSent', { time: timeIn(endpoint.disabledAt, zone) })}
        </p>`
      : endpoint.failingSince
        ? html`<p role="status">
            ${badge(t.locale, 'failing')}
            ${t.html('health.failingSince', {
              time: timeIn(endpoint.failingSince, zone),
              count: endpoint.consecutiveFailures,
            })}
            ${lastError(t, endpoint)}
          </p>`
        : html`<p>${badge(t.locale, 'enabled')} ${t('health.receiving')}</p>`;
  return html`<section class="event" id="endpoint-${endpoint.id}" aria-label="${t('endpoint.labelNamed', { mode, name })}">
    <h4>${name} <code>${endpoint.id}</code></h4>
    <p>${t.html('endpoint.sends', { events: endpoint.enabledEvents.join(', '), url: html`<code>${endpoint.url}</code>` })}</p>
    ${health}
    ${
      canUse(session, 'developer')
        ? furtherEndpointControls(t, model, mode, endpoint)
        : revealSecret(t, session, endpoint.signingSecret)
    }
  </section>`;
}

/** An endpoint's last error, as its own sentence; nothing when it has none. */
function lastError(t: DevelopersT, endpoint: WebhookEndpointRecord) {
  return endpoint.lastError ? t.html('health.lastError', { error: html`<code>${endpoint.lastError}</code>` }) : null;
}

/** A further endpoint's settings form, secret and actions: for developers and owners. */
function furtherEndpointControls(
  t: DevelopersT,
  model: DevelopersModel,
  mode: ConsoleMode,
  endpoint: WebhookEndpointRecord,
) {
  const { session } = model;
  const action = (path: string, label: string, style = 'secondary') =>
    html`<form method="post" action="/console/developers/endpoints/${endpoint.id}/${path}" class="inline">
      ${csrfField(session)}
      <input type="hidden" name="mode" value="${mode}" />
      <button type="submit" class="${style}">${label}</button>
    </form>`;
  return html`<details>
      <summary>${t('endpoint.edit')}</summary>
      <form method="post" action="/console/developers/endpoints/${endpoint.id}" class="inline">
        ${csrfField(session)}
        <input type="hidden" name="mode" value="${mode}" />
        <label
          >${t('endpoint.url')}
          <input type="url" name="url" value="${endpoint.url}" required maxlength="${MAX_URL_LENGTH}"
        /></label>
        <label
          >${t('endpoint.description')}
          <input type="text" name="description" value="${endpoint.description ?? ''}" maxlength="${ENDPOINT_DESCRIPTION_MAX_CHARS}"
        /></label>
        ${eventTypeChoices(t, endpoint.enabledEvents)}
        <button type="submit">${t('endpoint.saveAndEnable')}</button>
      </form>
    </details>
    ${revealSecret(t, model.session, endpoint.signingSecret)}
    <div class="actions">
      ${endpoint.status === 'disabled' ? action('enable', t('endpoint.enable')) : action('disable', t('endpoint.disable'))}
      <a class="button secondary" href="/console/developers/endpoints/${endpoint.id}/rotate-secret?mode=${mode}"
        >${t('endpoint.rotate')}</a
      >
      <a class="button secondary" href="/console/developers/endpoints/${endpoint.id}/delete?mode=${mode}"
        >${t('endpoint.delete')}</a
      >
    </div>`;
}

function addEndpointForm(t: DevelopersT, model: DevelopersModel, mode: ConsoleMode, count: number) {
  if (!canUse(model.session, 'developer')) return null;
  if (count >= MAX_ENDPOINTS_PER_MODE) {
    return html`<p class="muted">${t('endpoint.limit', { max: MAX_ENDPOINTS_PER_MODE })}</p>`;
  }
  return html`<details id="add-endpoint-${mode}">
    <summary>${t('endpoint.add', { mode })}</summary>
    <form method="post" action="/console/developers/endpoints" class="inline">
      ${csrfField(model.session)}
      <input type="hidden" name="mode" value="${mode}" />
      <label
        >${t('endpoint.url')}
        <input type="url" name="url" required maxlength="${MAX_URL_LENGTH}" placeholder="https://accounting.example/webhooks"
      /></label>
      <label
        >${t('endpoint.description')}
        <input type="text" name="description" maxlength="${ENDPOINT_DESCRIPTION_MAX_CHARS}"
      /></label>
      ${eventTypeChoices(t, DEFAULT_ENABLED_EVENTS)}
      <button type="submit">${t('endpoint.addButton')}</button>
    </form>
  </details>`;
}

function endpointCard(
  t: DevelopersT,
  model: DevelopersModel,
  mode: ConsoleMode,
  endpoint: WebhookEndpointRecord | null,
) {
  const { session } = model;
  const locked = mode === 'live' && session.merchant.status !== 'live';
  const typed = model.rejected?.mode === mode ? model.rejected.url : (endpoint?.url ?? '');
  const sent =
    model.rejected?.mode === mode ? model.rejected.events : (endpoint?.enabledEvents ?? DEFAULT_ENABLED_EVENTS);
  const changes = canUse(session, 'developer');
  const form = locked
    ? html`<p class="muted">${t('liveLocked')}</p>`
    : !changes
      ? null
      : html`<form method="post" action="/console/developers/webhook-endpoint" class="inline">
        ${csrfField(session)}
        <input type="hidden" name="mode" value="${mode}" />
        <label
          >${t('endpoint.urlLabel', { mode })}
          <input type="url" name="url" value="${typed}" required maxlength="${MAX_URL_LENGTH}" placeholder="https://shop.example/webhooks"
        /></label>
        ${eventTypeChoices(t, sent)}
        <button type="submit">${t('endpoint.save')}</button>
      </form>`;
  const secret = endpoint
    ? html`${revealSecret(t, model.session, endpoint.signingSecret)}
        ${
          endpoint.previousSecretExpiresAt
            ? html`<p>
              ${t.html('endpoint.previousSecret', {
                header: SIGNATURE_HEADER,
                time: timeIn(endpoint.previousSecretExpiresAt, session.merchant.timeZone),
              })}
            </p>`
            : null
        }
        ${
          changes
            ? html`<div class="actions">
                <a class="button secondary" href="/console/developers/rotate-secret?mode=${mode}"
                  >${t('endpoint.rotate')}</a
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
                        <button type="submit" class="secondary">${t('endpoint.disable')}</button>
                      </form>`
                }
                <a class="button secondary" href="/console/developers/endpoints/${endpoint.id}/delete?mode=${mode}"
                  >${t('endpoint.delete')}</a
                >
              </div>`
            : null
        }`
    : null;
  return html`<section class="event" id="endpoint-${mode}" aria-label="${t('endpoint.label', { mode })}">
    <h3 ${endpoint ? html`id="endpoint-${endpoint.id}"` : null}>
      ${t('endpoint.heading', { mode })} ${endpoint ? html`<code>${endpoint.id}</code>` : null}
    </h3>
    <p>
      ${
        endpoint
          ? t.html('endpoint.sendsOthersSkipped', {
              events: endpoint.enabledEvents.join(', '),
              url: html`<code>${endpoint.url}</code>`,
            })
          : html`<span class="muted">${t('endpoint.none')}</span>`
      }
    </p>
    ${endpoint && !locked ? healthBlock(t, model, mode, endpoint) : null} ${form} ${secret}
  </section>`;
}

/** Warned from the first failure, re-enabled and recovered here. */
function healthBlock(t: DevelopersT, model: DevelopersModel, mode: ConsoleMode, endpoint: WebhookEndpointRecord) {
  const { session, overview } = model;
  const zone = session.merchant.timeZone;
  const changes = canUse(session, 'developer');
  const recoverForm = !changes
    ? null
    : html`<form method="post" action="/console/developers/recover" class="inline">
    ${csrfField(session)}
    <input type="hidden" name="mode" value="${mode}" />
    <label
      >${t('recover.label')}
      <select name="days">
        ${RECOVER_DAYS.map((days) => html`<option value="${days}">${t('recover.period', { days })}</option>`)}
      </select></label
    >
    <button type="submit" class="secondary">${t('recover.send')}</button>
  </form>`;
  if (endpoint.status === 'disabled') {
    const disabledAt = timeIn(endpoint.disabledAt, zone);
    return html`<div class="error" role="alert">
        <p>
          ${badge(t.locale, 'disabled')}
          ${
            endpoint.failingSince
              ? html`${t.html('health.disabledFailing', {
                  time: disabledAt,
                  since: timeIn(endpoint.failingSince, zone),
                })}
                ${lastError(t, endpoint)}`
              : t.html('health.disabledByHand', { time: disabledAt })
          }
          ${t('health.keptFailed')}
        </p>
        ${
          changes
            ? html`<form method="post" action="/console/developers/webhook-endpoint/enable" class="actions">
                ${csrfField(session)}
                <input type="hidden" name="mode" value="${mode}" />
                <button type="submit">${t('health.reenable')}</button>
              </form>`
            : null
        }
      </div>`;
  }
  if (endpoint.failingSince) {
    const disablesAt = new Date(endpoint.failingSince.getTime() + overview.disableAfterMs);
    return html`<div class="warning" role="status">
        <p>
          ${badge(t.locale, 'failing')}
          ${t.html('health.failingSince', {
            time: timeIn(endpoint.failingSince, zone),
            count: endpoint.consecutiveFailures,
          })}
          ${lastError(t, endpoint)} ${t.html('health.disablesAt', { time: timeIn(disablesAt, zone) })}
        </p>
      </div>
      ${recoverForm}`;
  }
  return html`<p>${badge(t.locale, 'enabled')} ${t('health.receiving')}</p>
    ${recoverForm}`;
}

/**
 * The signing secret behind a disclosure, for developers and owners only: with it a viewer (reads
 * only) could sign a forged payment.completed to the shop.
 */
function revealSecret(t: DevelopersT, session: ConsoleSession, secret: string) {
  if (session.member.role === 'viewer') {
    return html`<p class="muted">${t('secret.forViewers')}</p>`;
  }
  return html`<details>
    <summary>${t('secret.reveal')}</summary>
    <p><code class="secret">${secret}</code></p>
  </details>`;
}

/** What a key is now: revoked, expired, expiring after a roll, or active. */
function keyState(t: DevelopersT, key: ApiKeyEntity, zone: string) {
  if (key.revokedAt) return t.html('keys.revoked', { time: timeIn(key.revokedAt, zone) });
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) {
    return t.html('keys.expired', { time: timeIn(key.expiresAt, zone) });
  }
  if (key.expiresAt) {
    return html`${badge(t.locale, 'expiring')} ${t.html('keys.worksUntil', { time: timeIn(key.expiresAt, zone) })}`;
  }
  return t('keys.active');
}

const isUsable = (key: ApiKeyEntity) => !key.revokedAt && (!key.expiresAt || key.expiresAt.getTime() > Date.now());

/** Days the old key of a roll keeps working (0 to 7). */
export const ROLL_OVERLAP_DAYS = [0, 1, 2, 3, 7] as const;

function keyControls(t: DevelopersT, model: DevelopersModel, key: ApiKeyEntity) {
  const { session } = model;
  if (!isUsable(key) || session.member.role === 'viewer') return null;
  return html`<div><form method="post" action="/console/developers/keys/${key.id}/roll" class="inline">
      ${csrfField(session)}
      <label for="overlap-${key.id}">${t('keys.overlap')}</label>
      <select id="overlap-${key.id}" name="overlapDays">
        ${ROLL_OVERLAP_DAYS.map(
          (days) => html`<option value="${days}" ${days === 1 ? html`selected` : null}>
            ${t('keys.overlapDays', { days })}
          </option>`,
        )}
      </select>
      <button type="submit" class="secondary">${t('keys.roll', { last4: key.keyLast4 })}</button>
    </form>
    <form method="post" action="/console/developers/keys/${key.id}/revoke" class="actions">
      ${csrfField(session)}
      <button type="submit" class="danger">${t('keys.revoke', { last4: key.keyLast4 })}</button>
    </form></div>`;
}

function keysCard(t: DevelopersT, model: DevelopersModel) {
  const { session, overview } = model;
  const zone = session.merchant.timeZone;
  const keys = overview.keys;
  const canChange = session.member.role !== 'viewer';
  const rows = keys.map(
    (key) => html`<tr>
      <td data-label="${t('keys.mode')}">${t('keys.modeName', { mode: key.mode })}</td>
      <td data-label="${t('keys.key')}"><code>svc_${key.mode}_…${key.keyLast4}</code></td>
      <td data-label="${t('keys.created')}">${timeIn(key.createdAt, zone)}</td>
      <td data-label="${t('keys.lastUsed')}">
        ${key.lastUsedAt ? timeIn(key.lastUsedAt, zone) : html`<span class="muted">${t('keys.never')}</span>`}
      </td>
      <td data-label="${t('keys.state')}">${keyState(t, key, zone)}</td>
      ${canChange ? html`<td data-label="${t('keys.change')}">${keyControls(t, model, key)}</td>` : null}
    </tr>`,
  );
  const shown = model.issuedKey
    ? html`<div class="notice" role="status">
        <p>${t('keys.issued', { mode: model.issuedKey.mode })}</p>
        <p><code data-new-api-key>${model.issuedKey.key}</code></p>
      </div>`
    : null;
  return html`<div class="card" id="api-keys">
    <h2>${t('keys.heading')}</h2>
    ${shown}
    ${
      keys.length === 0
        ? html`<p class="muted">${t('keys.none')}</p>`
        : html`<div class="scroll" tabindex="0" role="region" aria-label="${t('keys.heading')}">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">${t('keys.mode')}</th>
                  <th scope="col">${t('keys.key')}</th>
                  <th scope="col">${t('keys.created')}</th>
                  <th scope="col">${t('keys.lastUsed')}</th>
                  <th scope="col">${t('keys.state')}</th>
                  ${canChange ? html`<th scope="col">${t('keys.change')}</th>` : null}
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
            <label for="new-key-mode">${t('keys.newMode')}</label>
            <select id="new-key-mode" name="mode">
              <option value="test">${t('keys.modeName', { mode: 'test' })}</option>
              ${
                session.merchant.status === 'live'
                  ? html`<option value="live">${t('keys.modeName', { mode: 'live' })}</option>`
                  : null
              }
            </select>
            <button type="submit">${t('keys.create')}</button>
          </form>`
        : null
    }
    <p class="muted">
      ${t('keys.note')} ${session.merchant.status === 'live' ? null : t('keys.liveLocked')}
    </p>
  </div>`;
}

export function renderDevelopers(nonce: string, model: DevelopersModel): string {
  const { session } = model;
  const t = developersT(session.locale);
  const body = html`<h1>${t('page.title')}</h1>
    <p class="zone">${t('page.zone', { zone: session.merchant.timeZone })}</p>
    ${messages(model.notice, model.error)} ${goLiveCard(t, model)}
    <div class="card" id="webhooks">
      <h2>${t('webhooks.heading')}</h2>
      ${endpointsOfMode(t, model, 'test')} ${endpointsOfMode(t, model, 'live')}
    </div>
    ${keysCard(t, model)}`;
  return consolePage({ title: t('page.title'), nonce, session, section: 'developers' }, body);
}

/** How long the console lets the rotated-out secret keep signing webhook-signature. */
export const ROTATION_OVERLAPS = [
  { seconds: 0, label: 'rotate.overlap.none' },
  { seconds: 3_600, label: 'rotate.overlap.hour' },
  { seconds: 86_400, label: 'rotate.overlap.day' },
  { seconds: 604_800, label: 'rotate.overlap.week' },
] as const satisfies readonly { seconds: number; label: DevelopersKey }[];

/** The overlap radios of a rotation's confirmation step, none chosen by default. */
function overlapChoices(t: DevelopersT) {
  return html`<fieldset>
    <legend>${t('rotate.overlap')}</legend>
    ${ROTATION_OVERLAPS.map(
      ({ seconds, label }) =>
        html`<label class="check"
          ><input type="radio" name="overlap" value="${String(seconds)}" ${seconds === 0 ? html`checked` : null} />
          ${t(label)}</label
        >`,
    )}
  </fieldset>`;
}

export function renderRotateConfirm(nonce: string, session: ConsoleSession, mode: ConsoleMode): string {
  const t = developersT(session.locale);
  const body = html`<div class="card">
    <h1>${t('rotate.heading', { mode })}</h1>
    <p>
      ${t.html('rotate.text', {
        mode,
        header: SIGNATURE_HEADER,
        serviceHeader: html`<code>Service-Signature</code>`,
      })}
    </p>
    <form method="post" action="/console/developers/rotate-secret" class="actions">
      ${csrfField(session)}
      <input type="hidden" name="mode" value="${mode}" />
      ${overlapChoices(t)}
      <button type="submit" class="danger">${t('rotate.confirm')}</button>
      <a class="button secondary" href="/console/developers#endpoint-${mode}">${t('cancel')}</a>
    </form>
  </div>`;
  return consolePage({ title: t('rotate.title'), nonce, session, section: 'developers' }, body);
}

/** A confirmation step for a change of one further endpoint (rotate its secret, or delete it). */
export function renderEndpointConfirm(
  nonce: string,
  session: ConsoleSession,
  mode: ConsoleMode,
  endpoint: WebhookEndpointRecord,
  action: 'rotate-secret' | 'delete',
): string {
  const t = developersT(session.locale);
  const name = endpoint.description ?? endpoint.url;
  const url = html`<code>${endpoint.url}</code>`;
  const rotate = action === 'rotate-secret';
  const body = html`<div class="card">
    <h1>${t(rotate ? 'endpointRotate.heading' : 'endpointDelete.heading', { name })}</h1>
    <p>
      ${
        rotate
          ? t.html('endpointRotate.text', { url, header: SIGNATURE_HEADER })
          : t.html('endpointDelete.text', { url, code: html`<code>endpoint_deleted</code>` })
      }
    </p>
    <form method="post" action="/console/developers/endpoints/${endpoint.id}/${action}" class="actions">
      ${csrfField(session)}
      <input type="hidden" name="mode" value="${mode}" />
      ${rotate ? overlapChoices(t) : null}
      <button type="submit" class="danger">${t(rotate ? 'rotate.confirm' : 'endpointDelete.title')}</button>
      <a class="button secondary" href="/console/developers#endpoint-${endpoint.id}">${t('cancel')}</a>
    </form>
  </div>`;
  return consolePage(
    { title: t(rotate ? 'rotate.title' : 'endpointDelete.title'), nonce, session, section: 'developers' },
    body,
  );
}
