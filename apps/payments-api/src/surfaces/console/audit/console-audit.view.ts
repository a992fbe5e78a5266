import { html } from '../../../platform/html/html';
import { AUDIT_ACTIONS, type AuditRecord } from '../../../core/audit';
import { consolePage, timeIn } from '../shared/console-layout.view';
import type { ConsoleSession } from '../shared/console-session';

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
  return html`<code>${name}</code> <span class="muted">(${value})</span>`;
}

/** /console/audit: who changed what, newest first, filtered by actor and action. */
export function renderAudit(nonce: string, model: AuditModel): string {
  const { session } = model;
  const zone = session.merchant.timeZone;
  const rows = model.entries.map(
    (entry) => html`<tr>
      <td data-label="Time">${timeIn(entry.createdAt, zone)}</td>
      <td data-label="Actor">${named(entry.actor, model.names)}</td>
      <td data-label="Action"><code>${entry.action}</code></td>
      <td data-label="Target">${entry.target ? named(entry.target, model.names) : html`<span class="muted">—</span>`}</td>
      <td data-label="Client address">${entry.clientAddress ?? html`<span class="muted">—</span>`}</td>
    </tr>`,
  );
  const body = html`<h1>Audit log</h1>
    <p class="zone">Times in ${zone}. Every change to keys, webhook endpoints, signing secrets, members, refunds and
      cancels, from the console or the API; kept for at least a year.</p>
    <div class="card">
      <form method="get" action="/console/audit" class="filters">
        <label
          >Actor (member email or key id)
          <input name="actor" value="${model.actor}" maxlength="254" />
        </label>
        <label
          >Action
          <select name="action">
            <option value="">Any action</option>
            ${AUDIT_ACTIONS.map(
              (action) =>
                html`<option value="${action}" ${action === model.action ? html`selected` : null}>${action}</option>`,
            )}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
    </div>
    <div class="card">
      ${
        rows.length === 0
          ? html`<p class="muted">No entries${model.actor || model.action ? ' match these filters' : ''}.</p>`
          : html`<div class="scroll" tabindex="0" role="region" aria-label="Audit log entries">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Client address</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>
          </div>`
      }
      <nav class="pager" aria-label="Pages">
        ${model.newestHref ? html`<a href="${model.newestHref}">Newest</a>` : null}
        ${model.olderHref ? html`<a href="${model.olderHref}">Older</a>` : null}
      </nav>
    </div>`;
  return consolePage({ title: 'Audit log', nonce, session, section: 'audit' }, body);
}
