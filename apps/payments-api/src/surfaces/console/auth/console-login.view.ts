import { html } from '../../../platform/html/html';
import type { Locale } from '../../../platform/i18n/locale';
import { consolePage, messages } from '../shared/console-layout.view';
import { CONSOLE_PASSWORD_MAX_CHARS } from '../../../accounts/merchants';
import { consoleAuthT } from './messages';

export interface LoginForm {
  csrf: string;
  email?: string;
  error?: string;
  notice?: string;
}

export function renderLogin(nonce: string, locale: Locale, form: LoginForm): string {
  const t = consoleAuthT(locale);
  return consolePage(
    { title: t('login.title'), nonce, locale },
    html`<div class="card login">
      <h1>${t('login.title')}</h1>
      ${messages(form.notice ?? null, form.error ?? null)}
      <form method="post" action="/console/login">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <label
          >${t('login.email')}
          <input type="email" name="email" autocomplete="username" required maxlength="254" value="${form.email ?? ''}"
        /></label>
        <label
          >${t('login.password')}
          <input type="password" name="password" autocomplete="current-password" required maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <button type="submit">${t('login.submit')}</button>
      </form>
      <p><a href="/console/login/forgot">${t('login.forgot')}</a></p>
      ${form.notice ? '' : html`<p class="muted">${t('login.setByApproval')}</p>`}
    </div>`,
  );
}

export interface SecondStepForm {
  csrf: string;
  error?: string;
}

/** The second step of a login with two-step on: a code from the authenticator app, or a recovery code. */
export function renderSecondStep(nonce: string, locale: Locale, form: SecondStepForm): string {
  const t = consoleAuthT(locale);
  return consolePage(
    { title: t('secondStep.title'), nonce, locale },
    html`<div class="card login">
      <h1>${t('secondStep.title')}</h1>
      ${messages(null, form.error ?? null)}
      <form method="post" action="/console/login/two-step">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <label
          >${t('secondStep.code')}
          <input name="code" autocomplete="one-time-code" inputmode="text" required maxlength="40"
        /></label>
        <button type="submit">${t('secondStep.submit')}</button>
      </form>
      <form method="post" action="/console/logout">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <button type="submit" class="secondary">${t('secondStep.other')}</button>
      </form>
      <p>${t('secondStep.recovery')}</p>
    </div>`,
  );
}

export interface ChooseMerchantForm {
  csrf: string;
  /** The choice's token: only this answer carries it. */
  choice: string;
  logins: { memberId: string; merchantName: string }[];
}

/** After a password that opened the address's logins at several merchants: which one to open. */
export function renderChooseMerchant(nonce: string, locale: Locale, form: ChooseMerchantForm): string {
  const t = consoleAuthT(locale);
  const choices = form.logins.map(
    (login) => html`<li>
      <button type="submit" name="member" value="${login.memberId}">${login.merchantName}</button>
    </li>`,
  );
  return consolePage(
    { title: t('choose.title'), nonce, locale },
    html`<div class="card login">
      <h1>${t('choose.title')}</h1>
      <p>${t('choose.text')}</p>
      <form method="post" action="/console/login/choose">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <input type="hidden" name="choice" value="${form.choice}" />
        <ul class="choices">
          ${choices}
        </ul>
      </form>
      <p class="muted">${t('choose.later')}</p>
    </div>`,
  );
}
