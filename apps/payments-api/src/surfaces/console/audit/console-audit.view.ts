import { html } from '../../../platform/html/html';
import { AUDIT_ACTIONS, type AuditRecord } from '../../../core/audit';
import { consolePage, timeIn } from '../shared/console-layout.view';
import type { ConsoleSession } from '../shared/console-session';
import { auditT } from './messages';

export interface AuditModel {
  session: ConsoleSession;
  entries: AuditRecord[];
  /** The names the pages use for the keys and members entries name by id (key mask, e-mail). */
  names: Map<string, string>;
  actor: string;
  action: string;
  /** The address of the next (older) page, or null on the last. */
  olderHref: string | null;
  newestHref: string | null;
}

/** An actor or target as the pages name it (a key's mask, a member's e-mail), its id kept beside it. */
function named(value: string, names: Map<string, string>) {
  const name = names.get(value);
  if (!name) return html`<code>${value}</code>`;
  return html`<code>${name}</code> <span class="muted">(<code>${value}</code>)</span>`;
}

/** /console/audit: who changed what, newest first, filtered by actor and action. */
export function renderAudit(nonce: string, model: AuditModel): string {
  const { session } = model;
  const t = auditT(session.locale);
  const zone = session.merchant.timeZone;
  const rows = model.entries.map(
    (entry) => html`<tr>
      <td data-label="${t('audit.time')}">${timeIn(entry.createdAt, zone)}</td>
      <td data-label="${t('audit.actor')}">${named(entry.actor, model.names)}</td>
      <td data-label="${t('audit.action')}">${t(`action.${entry.action}`)} <code>${entry.action}</code></td>
      <td data-label="${t('audit.target')}">${entry.target ? named(entry.target, model.names) : html`<span class="muted">—</span>`}</td>
      <td data-label="${t('audit.clientAddress')}">${entry.clientAddress ?? html`<span class="muted">—</span>`}</td>
    </tr>`,
  );
  const body = html`<h1>${t('audit.title')}</h1>
    <p class="zone">${t('audit.about', { zone })}</p>
    <div class="card">
      <form method="get" action="/console/audit" class="filters">
        <label
          >${t('audit.actorFilter')}
          <input name="actor" value="${model.actor}" maxlength="254" />
        </label>
        <label
          >${t('audit.action')}
          <select name="action">
            <option value="">${t('audit.anyAction')}</option>
            ${AUDIT_ACTIONS.map(
              (action) =>
                html`<option value="${action}" ${action === model.action ? html`selected` : null}>${t(`action.${action}`)}</option>`,
            )}
          </select>
        </label>
        <button type="submit">${t('audit.filter')}</button>
      </form>
    </div>
    <div class="card">
      ${
        rows.length === 0
          ? html`<p class="muted">${t(model.actor || model.action ? 'audit.noneMatch' : 'audit.none')}</p>`
          : html`<div class="scroll" tabindex="0" role="region" aria-label="${t('audit.entries')}">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">${t('audit.time')}</th>
                  <th scope="col">${t('audit.actor')}</th>
                  <th scope="col">${t('audit.action')}</th>
                  <th scope="col">${t('audit.target')}</th>
                  <th scope="col">${t('audit.clientAddress')}</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>
          </div>`
      }
      <nav class="pager" aria-label="${t('audit.pages')}">
        ${model.newestHref ? html`<a href="${model.newestHref}">${t('audit.newest')}</a>` : null}
        ${model.olderHref ? html`<a href="${model.olderHref}">${t('audit.older')}</a>` : null}
      </nav>
    </div>`;
  return consolePage({ title: t('audit.title'), nonce, session, section: 'audit' }, body);
}
