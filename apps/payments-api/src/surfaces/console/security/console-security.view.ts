import { SafeHtml, html } from '../../../platform/html/html';
import type { TwoStepSetup } from '../../../accounts/team';
import { consolePage, csrfField, messages } from '../shared/console-layout.view';
import type { ConsoleSession } from '../shared/console-session';
import { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from '../../../accounts/merchants';

export interface SecurityModel {
  session: ConsoleSession;
  notice: string | null;
  error: string | null;
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

/** A new password, after the current one; as long as at an invite. */
function passwordCard(session: ConsoleSession) {
  return html`<div class="card">
    <h2>Password</h2>
    <form method="post" action="/console/security/password">
      ${csrfField(session)}
      <div class="field">
        <label for="current-password">Current password</label>
        <input id="current-password" name="password" type="password" autocomplete="current-password" required maxlength="${CONSOLE_PASSWORD_MAX_CHARS}" />
      </div>
      <div class="field">
        <label for="new-password">New password (${CONSOLE_PASSWORD_MIN_CHARS} to ${CONSOLE_PASSWORD_MAX_CHARS} characters)</label>
        <input id="new-password" name="newPassword" type="password" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}" />
      </div>
      <div class="field">
        <label for="new-password-again">New password again</label>
        <input id="new-password-again" name="newPasswordAgain" type="password" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}" />
      </div>
      <button type="submit">Change password</button>
    </form>
  </div>`;
}

/** Your own login: the password, two-step login on or off. */
export function renderSecurity(nonce: string, model: SecurityModel): string {
  const { session } = model;
  let card: SafeHtml;
  if (model.recoveryCodes) {
    card = html`<div class="card">
      <h2>Recovery codes</h2>
      <p>
        Two-step login is on. Keep these codes somewhere safe: each signs you in once when you have no phone. They are
        shown only now.
      </p>
      <ul data-recovery-codes>
        ${model.recoveryCodes.map((code) => html`<li><code>${code}</code></li>`)}
      </ul>
      <p><a href="/console/security">Done</a></p>
    </div>`;
  } else if (model.setup) {
    card = html`<div class="card">
      <h2>Turn on two-step login</h2>
      <p>Scan this code with an authenticator app, or type the secret into it, then enter the 6-digit code it shows.</p>
      <figure>
        <div class="qr" role="img" aria-label="QR code of your two-step login secret">${new SafeHtml(model.setup.qrSvg)}</div>
        <figcaption>Secret: <code data-totp-secret>${model.setup.secret}</code></figcaption>
      </figure>
      <form method="post" action="/console/security/two-step/confirm">
        ${csrfField(session)} ${codeField('confirm-code', '6-digit code from the app')}
        <button type="submit">Turn on</button>
      </form>
    </div>`;
  } else if (model.confirmAgain) {
    card = html`<div class="card">
      <h2>Turn on two-step login</h2>
      <form method="post" action="/console/security/two-step/confirm">
        ${csrfField(session)} ${codeField('confirm-code', '6-digit code from the app')}
        <button type="submit">Turn on</button>
      </form>
    </div>`;
  } else if (session.member.twoStep) {
    card = html`<div class="card">
      <h2>Two-step login is on</h2>
      <p>${model.unusedRecoveryCodes ?? 0} unused recovery codes left.</p>
      <form method="post" action="/console/security/two-step/disable">
        ${csrfField(session)} ${codeField('disable-code', 'A current code or a recovery code, to turn it off')}
        <button type="submit" class="danger">Turn off two-step login</button>
      </form>
    </div>`;
  } else {
    card = html`<div class="card">
      <h2>Two-step login is off</h2>
      <p>With it on, signing in also asks for a code from an authenticator app on your phone.</p>
      <form method="post" action="/console/security/two-step">
        ${csrfField(session)}
        <div class="field">
          <label for="setup-password">Your password</label>
          <input id="setup-password" name="password" type="password" autocomplete="current-password" required maxlength="${CONSOLE_PASSWORD_MAX_CHARS}" />
        </div>
        <button type="submit">Set up two-step login</button>
      </form>
    </div>`;
  }
  const body = html`<h1>Your login</h1>
    <p>Signed in as <strong>${session.member.email}</strong> (${session.member.role}).</p>
    ${messages(model.notice, model.error)} ${card} ${model.setup || model.recoveryCodes ? null : passwordCard(session)}`;
  return consolePage({ title: 'Your login', nonce, session, section: 'security' }, body);
}
