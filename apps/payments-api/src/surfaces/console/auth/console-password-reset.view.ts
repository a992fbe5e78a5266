import { html } from '../../../platform/html/html';
import type { Locale } from '../../../platform/i18n/locale';
import { consolePage, messages } from '../shared/console-layout.view';
import { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from '../../../accounts/merchants';
import { consoleAuthT } from './messages';

export interface ForgotPasswordForm {
  csrf: string;
  email?: string;
  error?: string;
}

/** Asks for the login's e-mail address, to send a reset link to. */
export function renderForgotPassword(
  nonce: string,
  locale: Locale,
  form: ForgotPasswordForm,
  validMinutes: number,
): string {
  const t = consoleAuthT(locale);
  return consolePage(
    { title: t('forgot.title'), nonce, locale },
    html`<div class="card login">
      <h1>${t('forgot.title')}</h1>
      ${messages(null, form.error ?? null)}
      <p>${t('forgot.text', { minutes: validMinutes })}</p>
      <form method="post" action="/console/login/forgot">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <label
          >${t('login.email')}
          <input type="email" name="email" autocomplete="username" required maxlength="254" value="${form.email ?? ''}"
        /></label>
        <button type="submit">${t('forgot.submit')}</button>
      </form>
      <p><a href="/console/login">${t('forgot.back')}</a></p>
    </div>`,
  );
}

/** The same answer for every address: whether one has a login is never said. */
export function renderResetRequested(nonce: string, locale: Locale, email: string, validMinutes: number): string {
  const t = consoleAuthT(locale);
  return consolePage(
    { title: t('forgot.sent.title'), nonce, locale },
    html`<div class="card login">
      <h1>${t('forgot.sent.title')}</h1>
      <p role="status">${t.html('forgot.sent', { email: html`<strong>${email}</strong>`, minutes: validMinutes })}</p>
      <p>${t('forgot.noMail')}</p>
      <p><a href="/console/login">${t('forgot.back')}</a></p>
    </div>`,
  );
}

/** Without e-mail (SMTP_URL unset) no link can be sent: what to do instead. */
export function renderResetUnavailable(nonce: string, locale: Locale): string {
  const t = consoleAuthT(locale);
  return consolePage(
    { title: t('forgot.title'), nonce, locale },
    html`<div class="card login">
      <h1>${t('forgot.title')}</h1>
      <p>${t('forgot.unavailable')}</p>
      <p><a href="/console/login">${t('forgot.back')}</a></p>
    </div>`,
  );
}

export interface NewPasswordForm {
  email: string;
  error?: string;
}

/** The page a reset link opens: the new password, twice. */
export function renderNewPassword(nonce: string, locale: Locale, form: NewPasswordForm): string {
  const t = consoleAuthT(locale);
  return consolePage(
    { title: t('reset.title'), nonce, locale },
    html`<div class="card login">
      <h1>${t('reset.title')}</h1>
      ${messages(null, form.error ?? null)}
      <p>${t.html('reset.for', { email: html`<strong>${form.email}</strong>` })}</p>
      <form method="post">
        <label
          >${t('reset.password', { min: CONSOLE_PASSWORD_MIN_CHARS, max: CONSOLE_PASSWORD_MAX_CHARS })}
          <input type="password" name="password" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <label
          >${t('reset.again')}
          <input type="password" name="passwordAgain" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <button type="submit">${t('reset.submit')}</button>
      </form>
    </div>`,
  );
}
