import { SafeHtml, html } from '../../../platform/html/html';
import { LANGUAGE_NAMES, LOCALES, type Locale } from '../../../platform/i18n/locale';
import type { TwoStepSetup } from '../../../accounts/team';
import { consolePage, csrfField, messages } from '../shared/console-layout.view';
import type { ConsoleSession } from '../shared/console-session';
import { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from '../../../accounts/merchants';
import { consoleSecurityT, type ConsoleSecurityT } from './messages';

export interface SecurityModel {
  session: ConsoleSession;
  notice: string | null;
  error: string | null;
  /** The language the browser asks for, which the console follows until the member chooses one. */
  browserLocale: Locale;
  /** While turning two-step on: the QR code and secret, shown once, right after the password. */
  setup?: TwoStepSetup;
  /** A wrong code while turning it on: the code form again, without the secret. */
  confirmAgain?: boolean;
  /** Just turned on: the recovery codes, shown this once. */
  recoveryCodes?: string[];
  unusedRecoveryCodes?: number;
}

function codeField(id: string, label: string) {
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <input id="${id}" name="code" autocomplete="one-time-code" required maxlength="40" />
  </div>`;
}

/** A language's own name, marked as that language for screen readers. */
const languageName = (locale: Locale) => html`<span lang="${locale}">${LANGUAGE_NAMES[locale]}</span>`;

/** The member's language: one of ours, or whatever the browser asks for (the default). */
function languageCard(t: ConsoleSecurityT, model: SecurityModel) {
  const chosen = model.session.member.locale;
  const option = (value: Locale | '', label: SafeHtml, lang?: Locale) =>
    html`<option value="${value}" ${lang ? html`lang="${lang}"` : null} ${(chosen ?? '') === value ? html`selected` : null}>
      ${label}
    </option>`;
  return html`<div class="card">
    <h2>${t('language.heading')}</h2>
    <p>${t('language.text')}</p>
    <form method="post" action="/console/security/language" class="inline">
      ${csrfField(model.session)}
      <label
        >${t('language.label')}
        <select name="locale">
          ${option('', t.html('language.browser', { language: languageName(model.browserLocale) }))}
          ${LOCALES.map((locale) => option(locale, html`${LANGUAGE_NAMES[locale]}`, locale))}
        </select></label
      >
      <button type="submit">${t('language.save')}</button>
    </form>
  </div>`;
}

/** A new password, after the current one; as long as at an invite. */
function passwordCard(t: ConsoleSecurityT, session: ConsoleSession) {
  return html`<div class="card">
    <h2>${t('password.heading')}</h2>
    <form method="post" action="/console/security/password">
      ${csrfField(session)}
      <div class="field">
        <label for="current-password">${t('password.current')}</label>
        <input id="current-password" name="password" type="password" autocomplete="current-password" required maxlength="${CONSOLE_PASSWORD_MAX_CHARS}" />
      </div>
      <div class="field">
        <label for="new-password">${t('password.new', { min: CONSOLE_PASSWORD_MIN_CHARS, max: CONSOLE_PASSWORD_MAX_CHARS })}</label>
        <input id="new-password" name="newPassword" type="password" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}" />
      </div>
      <div class="field">
        <label for="new-password-again">${t('password.again')}</label>
        <input id="new-password-again" name="newPasswordAgain" type="password" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}" />
      </div>
      <button type="submit">${t('password.submit')}</button>
    </form>
  </div>`;
}

/** Two-step login: its recovery codes once, its setup, or the form that turns it on or off. */
function twoStepCard(t: ConsoleSecurityT, model: SecurityModel): SafeHtml {
  const { session } = model;
  const confirmForm = html`<form method="post" action="/console/security/two-step/confirm">
    ${csrfField(session)} ${codeField('confirm-code', t('twoStep.confirmCode'))}
    <button type="submit">${t('twoStep.turnOn')}</button>
  </form>`;
  if (model.recoveryCodes) {
    return html`<div class="card">
      <h2>${t('twoStep.codes.heading')}</h2>
      <p>${t('twoStep.codes.text')}</p>
      <ul data-recovery-codes>
        ${model.recoveryCodes.map((code) => html`<li><code>${code}</code></li>`)}
      </ul>
      <p><a href="/console/security">${t('twoStep.codes.done')}</a></p>
    </div>`;
  }
  if (model.setup) {
    return html`<div class="card">
      <h2>${t('twoStep.turnOn.heading')}</h2>
      <p>${t('twoStep.turnOn.text')}</p>
      <figure>
        <div class="qr" role="img" aria-label="${t('twoStep.qr')}">${new SafeHtml(model.setup.qrSvg)}</div>
        <figcaption>${t('twoStep.secret')} <code data-totp-secret>${model.setup.secret}</code></figcaption>
      </figure>
      ${confirmForm}
    </div>`;
  }
  if (model.confirmAgain) {
    return html`<div class="card">
      <h2>${t('twoStep.turnOn.heading')}</h2>
      ${confirmForm}
    </div>`;
  }
  if (session.member.twoStep) {
    return html`<div class="card">
      <h2>${t('twoStep.on.heading')}</h2>
      <p>${t('twoStep.on.unused', { count: model.unusedRecoveryCodes ?? 0 })}</p>
      <form method="post" action="/console/security/two-step/disable">
        ${csrfField(session)} ${codeField('disable-code', t('twoStep.disableCode'))}
        <button type="submit" class="danger">${t('twoStep.disable')}</button>
      </form>
    </div>`;
  }
  return html`<div class="card">
    <h2>${t('twoStep.off.heading')}</h2>
    <p>${t('twoStep.off.text')}</p>
    <form method="post" action="/console/security/two-step">
      ${csrfField(session)}
      <div class="field">
        <label for="setup-password">${t('twoStep.password')}</label>
        <input id="setup-password" name="password" type="password" autocomplete="current-password" required maxlength="${CONSOLE_PASSWORD_MAX_CHARS}" />
      </div>
      <button type="submit">${t('twoStep.setUp')}</button>
    </form>
  </div>`;
}

/** Your own login: its language, the password, two-step login on or off. */
export function renderSecurity(nonce: string, model: SecurityModel): string {
  const { session } = model;
  const t = consoleSecurityT(session.locale);
  const settingUp = model.setup || model.recoveryCodes;
  const body = html`<h1>${t('title')}</h1>
    <p>${t.html('signedInAs', { email: html`<strong>${session.member.email}</strong>`, role: session.member.role })}</p>
    ${messages(model.notice, model.error)} ${twoStepCard(t, model)}
    ${settingUp ? null : html`${passwordCard(t, session)} ${languageCard(t, model)}`}`;
  return consolePage({ title: t('title'), nonce, session, section: 'security' }, body);
}
