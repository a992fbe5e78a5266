import { html } from '../../../platform/html/html';
import { canUse, consolePage, csrfField, messages } from '../shared/console-layout.view';
import type { ConsoleSession } from '../shared/console-session';
import { formatInZone } from '../../../platform/time/zoned-time';
import { settingsT, type SettingsKey } from './messages';

/** Every zone this runtime knows, offered as suggestions (a datalist needs no script). */
const ZONES = Intl.supportedValuesOf('timeZone');

export interface SettingsModel {
  session: ConsoleSession;
  notice: SettingsKey | null;
  error: SettingsKey | null;
  typed?: string;
  now?: Date;
}

export function renderSettings(nonce: string, model: SettingsModel): string {
  const { session } = model;
  const t = settingsT(session.locale);
  const zone = session.merchant.timeZone;
  const now = html`<strong>${formatInZone(model.now ?? new Date(), zone)}</strong>`;
  const body = html`<h1>${t('page.title')}</h1>
    ${messages(model.notice && t(model.notice), model.error && t(model.error))}
    <div class="card">
      <h2>${t('zone.heading')}</h2>
      <p>${t.html('zone.intro', { now, zone })}</p>
      ${
        canUse(session, 'owner')
          ? html`<form method="post" action="/console/settings" class="inline">
        ${csrfField(session)}
        <label
          >${t('zone.label')}
          <input name="timeZone" value="${model.typed ?? zone}" list="zones" required maxlength="64" placeholder="Asia/Seoul"
        /></label>
        <button type="submit">${t('zone.save')}</button>
      </form>
      <datalist id="zones">${ZONES.map((name) => html`<option value="${name}"></option>`)}</datalist>`
          : html`<p class="muted">${t('zone.ownerOnly')}</p>`
      }
    </div>`;
  return consolePage({ title: t('page.title'), nonce, session, section: 'settings' }, body);
}
