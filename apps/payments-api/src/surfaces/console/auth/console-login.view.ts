import { html } from '../../../platform/html/html';
import { consolePage, messages } from '../shared/console-layout.view';
import { CONSOLE_PASSWORD_MAX_CHARS } from '../../../accounts/merchants';

export interface LoginForm {
  csrf: string;
  email?: string;
  error?: string;
  notice?: string;
}

export function renderLogin(nonce: string, form: LoginForm): string {
  return consolePage(
    { title: 'Log in', nonce },
    html`<div class="card login">
      <h1>Log in</h1>
      ${messages(form.notice ?? null, form.error ?? null)}
      <form method="post" action="/console/login">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <label
          >Email
          <input type="email" name="email" autocomplete="username" required maxlength="254" value="${form.email ?? ''}"
        /></label>
        <label
          >Password
          <input type="password" name="password" autocomplete="current-password" required maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <button type="submit">Log in</button>
      </form>
      <p><a href="/console/login/forgot">Forgot your password?</a></p>
      ${form.notice ? '' : html`<p class="muted">The login is set when payhook approves your merchant account.</p>`}
    </div>`,
  );
}

export interface SecondStepForm {
  csrf: string;
  error?: string;
}

/** The second step of a login with two-step on: a code from the authenticator app, or a recovery code. */
export function renderSecondStep(nonce: string, form: SecondStepForm): string {
  return consolePage(
    { title: 'Two-step login', nonce },
    html`<div class="card login">
      <h1>Two-step login</h1>
      ${messages(null, form.error ?? null)}
      <form method="post" action="/console/login/two-step">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <label
          >Code from your authenticator app, or a recovery code
          <input name="code" autocomplete="one-time-code" inputmode="text" required maxlength="40"
        /></label>
        <button type="submit">Continue</button>
      </form>
      <form method="post" action="/console/logout">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <button type="submit" class="secondary">Sign in as someone else</button>
      </form>
      <p>A recovery code works once. Lost both? Another owner of your account can remove and invite you again.</p>
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
export function renderChooseMerchant(nonce: string, form: ChooseMerchantForm): string {
  const choices = form.logins.map(
    (login) => html`<li>
      <button type="submit" name="member" value="${login.memberId}">${login.merchantName}</button>
    </li>`,
  );
  return consolePage(
    { title: 'Choose a merchant', nonce },
    html`<div class="card login">
      <h1>Choose a merchant</h1>
      <p>Your e-mail and password open the console of more than one merchant. Which one now?</p>
      <form method="post" action="/console/login/choose">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <input type="hidden" name="choice" value="${form.choice}" />
        <ul class="choices">
          ${choices}
        </ul>
      </form>
      <p class="muted">To open another one later, log out and log in again.</p>
    </div>`,
  );
}
