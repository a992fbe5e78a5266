import { html } from '../../../platform/html/html';
import { consolePage, messages } from '../shared/console-layout.view';
import { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from '../../../accounts/merchants';

export interface ForgotPasswordForm {
  csrf: string;
  email?: string;
  error?: string;
}

/** Asks for the login's e-mail address, to send a reset link to. */
export function renderForgotPassword(nonce: string, form: ForgotPasswordForm, validMinutes: number): string {
  return consolePage(
    { title: 'Forgot your password', nonce },
    html`<div class="card login">
      <h1>Forgot your password</h1>
      ${messages(null, form.error ?? null)}
      <p>We e-mail a link that sets a new password. It works once, for ${validMinutes} minutes.</p>
      <form method="post" action="/console/login/forgot">
        <input type="hidden" name="csrf" value="${form.csrf}" />
        <label
          >Email
          <input type="email" name="email" autocomplete="username" required maxlength="254" value="${form.email ?? ''}"
        /></label>
        <button type="submit">Send the link</button>
      </form>
      <p><a href="/console/login">Back to the login</a></p>
    </div>`,
  );
}

/** The same answer for every address: whether one has a login is never said. */
export function renderResetRequested(nonce: string, email: string, validMinutes: number): string {
  return consolePage(
    { title: 'Check your e-mail', nonce },
    html`<div class="card login">
      <h1>Check your e-mail</h1>
      <p role="status">
        If <strong>${email}</strong> has a console login, an e-mail with a link to set a new password is on its way. The
        link works once, for ${validMinutes} minutes.
      </p>
      <p>No e-mail? Check the address, or ask another owner of your account to remove your login and invite you again.</p>
      <p><a href="/console/login">Back to the login</a></p>
    </div>`,
  );
}

/** Without e-mail (SMTP_URL unset) no link can be sent: what to do instead. */
export function renderResetUnavailable(nonce: string): string {
  return consolePage(
    { title: 'Forgot your password', nonce },
    html`<div class="card login">
      <h1>Forgot your password</h1>
      <p>
        This payhook sends no e-mail, so it cannot send a reset link. Another owner of your account can remove your
        login and invite you again.
      </p>
      <p><a href="/console/login">Back to the login</a></p>
    </div>`,
  );
}

export interface NewPasswordForm {
  email: string;
  error?: string;
}

/** The page a reset link opens: the new password, twice. */
export function renderNewPassword(nonce: string, form: NewPasswordForm): string {
  return consolePage(
    { title: 'Set a new password', nonce },
    html`<div class="card login">
      <h1>Set a new password</h1>
      ${messages(null, form.error ?? null)}
      <p>For the console login <strong>${form.email}</strong>. Every session of this login ends.</p>
      <form method="post">
        <label
          >New password (${CONSOLE_PASSWORD_MIN_CHARS} to ${CONSOLE_PASSWORD_MAX_CHARS} characters)
          <input type="password" name="password" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <label
          >New password again
          <input type="password" name="passwordAgain" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <button type="submit">Set the password</button>
      </form>
    </div>`,
  );
}
