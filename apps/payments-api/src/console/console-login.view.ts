import { html } from '../html/html';
import { consolePage, messages } from './console-layout.view';

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
          <input type="password" name="password" autocomplete="current-password" required maxlength="200"
        /></label>
        <button type="submit">Log in</button>
      </form>
      <p class="muted">The login is set when payhook approves your merchant account.</p>
    </div>`,
  );
}
