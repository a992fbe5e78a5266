import { html } from '../../../platform/html/html';
import { canUse, consolePage, csrfField, messages } from '../shared/console-layout.view';
import type { ConsoleSession } from '../shared/console-session';
import { formatInZone } from '../../../platform/time/zoned-time';

/** Every zone this runtime knows, offered as suggestions (a datalist needs no script). */
const ZONES = Intl.supportedValuesOf('timeZone');

export interface SettingsModel {
  session: ConsoleSession;
  notice: string | null;
  error: string | null;
  typed?: string;
  now?: Date;
}

export function renderSettings(nonce: string, model: SettingsModel): string {
  const { session } = model;
  const zone = session.merchant.timeZone;
  const body = html`<h1>Settings</h1>
    ${messages(model.notice, model.error)}
    <div class="card">
      <h2>Time zone</h2>
      <p>
        Every time in the console is shown in this zone, with the zone named. Now it is
        <strong>${formatInZone(model.now ?? new Date(), zone)}</strong> in ${zone}.
      </p>
      ${
        canUse(session, 'owner')
          ? html`<form method="post" action="/console/settings" class="inline">
        ${csrfField(session)}
        <label
          >IANA time zone
          <input name="timeZone" value="${model.typed ?? zone}" list="zones" required maxlength="64" placeholder="Asia/Seoul"
        /></label>
        <button type="submit">Save time zone</button>
      </form>
      <datalist id="zones">${ZONES.map((name) => html`<option value="${name}"></option>`)}</datalist>`
          : html`<p class="muted">An owner can change the time zone.</p>`
      }
    </div>`;
  return consolePage({ title: 'Settings', nonce, session, section: 'settings' }, body);
}
