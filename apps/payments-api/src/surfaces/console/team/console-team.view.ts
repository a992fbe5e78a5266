import { html } from '../../../platform/html/html';
import { MEMBER_ROLES, type Invite, type IssuedInvite, type Member, type MemberRole } from '../../../accounts/team';
import { badge, consolePage, csrfField, messages, timeIn } from '../shared/console-layout.view';
import type { ConsoleSession } from '../shared/console-session';
import { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from '../../../accounts/merchants';
import type { Locale } from '../../../platform/i18n/locale';
import { teamT, type TeamT } from './messages';

export interface TeamModel {
  session: ConsoleSession;
  members: Member[];
  invites: Invite[];
  notice: string | null;
  error: string | null;
  /** Just made: its link is on this page once and never again. */
  issued?: IssuedInvite;
}

function roleSelect(t: TeamT, id: string, selected: MemberRole) {
  return html`<select id="${id}" name="role">
    ${MEMBER_ROLES.map(
      (role) =>
        html`<option value="${role}" ${role === selected ? html`selected` : null}>${t('role.name', { role })}</option>`,
    )}
  </select>`;
}

function inviteState(invite: Invite): 'accepted' | 'revoked' | 'expired' | 'open' {
  if (invite.acceptedAt) return 'accepted';
  if (invite.revokedAt) return 'revoked';
  return invite.expiresAt.getTime() <= Date.now() ? 'expired' : 'open';
}

export function renderTeam(nonce: string, model: TeamModel): string {
  const { session } = model;
  const t = teamT(session.locale);
  const zone = session.merchant.timeZone;
  const isOwner = session.member.role === 'owner';
  const memberRows = model.members.map(
    (member) => html`<tr>
      <td data-label="${t('team.email')}">${member.email}${member.id === session.member.id ? html` <span class="muted">${t('team.you')}</span>` : null}</td>
      <td data-label="${t('team.role')}">${badge(session.locale, member.role)}</td>
      <td data-label="${t('team.twoStep')}">${t(member.twoStep ? 'team.twoStep.on' : 'team.twoStep.off')}</td>
      <td data-label="${t('team.since')}">${timeIn(member.createdAt, zone)}</td>
      ${
        isOwner
          ? html`<td data-label="${t('team.change')}"><div>
            <form method="post" action="/console/team/members/${member.id}/role" class="inline">
              ${csrfField(session)}
              <label for="role-${member.id}">${t('team.roleOf', { email: member.email })}</label>
              ${roleSelect(t, `role-${member.id}`, member.role)}
              <button type="submit" class="secondary">${t('team.changeRole')}</button>
            </form>
            <p class="actions">
              <a class="button danger" href="/console/team/members/${member.id}/remove">${t('team.remove', { email: member.email })}</a>
            </p>
          </div></td>`
          : null
      }
    </tr>`,
  );
  const inviteRows = model.invites.map(
    (invite) => html`<tr>
      <td data-label="${t('team.email')}">${invite.email}</td>
      <td data-label="${t('team.role')}">${t('role.name', { role: invite.role })}</td>
      <td data-label="${t('invites.state')}">${badge(session.locale, inviteState(invite))}</td>
      <td data-label="${t('invites.validUntil')}">${timeIn(invite.expiresAt, zone)}</td>
      ${
        isOwner
          ? html`<td data-label="${t('team.change')}">
            ${
              inviteState(invite) === 'open'
                ? html`<form method="post" action="/console/team/invites/${invite.id}/resend">
                    ${csrfField(session)}
                    <button type="submit" class="secondary">${t('invites.resend', { email: invite.email })}</button>
                  </form>
                  <form method="post" action="/console/team/invites/${invite.id}/revoke">
                    ${csrfField(session)}
                    <button type="submit" class="secondary">${t('invites.revoke', { email: invite.email })}</button>
                  </form>`
                : null
            }
          </td>`
          : null
      }
    </tr>`,
  );
  const issued = model.issued ? issuedNotice(t, model.issued) : null;
  const body = html`<h1>${t('team.title')}</h1>
    ${messages(model.notice, model.error)} ${issued}
    <ul>
      ${MEMBER_ROLES.map((role) => html`<li>${t(`role.${role}`)}</li>`)}
    </ul>
    <div class="card">
      <h2>${t('team.members')}</h2>
      <div class="scroll" tabindex="0" role="region" aria-label="${t('team.members')}">
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">${t('team.email')}</th>
              <th scope="col">${t('team.role')}</th>
              <th scope="col">${t('team.twoStep')}</th>
              <th scope="col">${t('team.since')}</th>
              ${isOwner ? html`<th scope="col">${t('team.change')}</th>` : null}
            </tr>
          </thead>
          <tbody>
            ${memberRows}
          </tbody>
        </table>
      </div>
    </div>
    ${
      isOwner
        ? html`<div class="card">
          <h2>${t('invites.new')}</h2>
          <form method="post" action="/console/team/invites">
            ${csrfField(session)}
            <div class="field">
              <label for="invite-email">${t('team.email')}</label>
              <input id="invite-email" type="email" name="email" required maxlength="254" autocomplete="off" />
            </div>
            <div class="field">
              <label for="invite-role">${t('team.role')}</label>
              ${roleSelect(t, 'invite-role', 'developer')}
            </div>
            <button type="submit">${t('invites.make')}</button>
          </form>
        </div>`
        : html`<p class="muted">${t('team.ownersOnly')}</p>`
    }
    ${
      model.invites.length === 0
        ? null
        : html`<div class="card">
          <h2>${t('invites.title')}</h2>
          <div class="scroll" tabindex="0" role="region" aria-label="${t('invites.title')}">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">${t('team.email')}</th>
                  <th scope="col">${t('team.role')}</th>
                  <th scope="col">${t('invites.state')}</th>
                  <th scope="col">${t('invites.validUntil')}</th>
                  ${isOwner ? html`<th scope="col">${t('team.change')}</th>` : null}
                </tr>
              </thead>
              <tbody>
                ${inviteRows}
              </tbody>
            </table>
          </div>
        </div>`
    }`;
  return consolePage({ title: t('team.title'), nonce, session, section: 'team' }, body);
}

/** The step before removing a member: who goes, and what that does. */
export function renderRemoveConfirm(nonce: string, session: ConsoleSession, member: Member): string {
  const t = teamT(session.locale);
  const merchant = session.merchant.name;
  const yourself = member.id === session.member.id;
  const body = html`<div class="card">
    <h1>${yourself ? t('remove.headingSelf', { merchant }) : t('remove.heading', { email: member.email, merchant })}</h1>
    <p>
      ${
        yourself
          ? t('remove.textSelf')
          : t.html('remove.text', {
              email: html`<strong>${member.email}</strong>`,
              role: t('role.name', { role: member.role }),
            })
      }
    </p>
    <form method="post" action="/console/team/members/${member.id}/remove" class="actions">
      ${csrfField(session)}
      <button type="submit" class="danger">${yourself ? t('remove.buttonSelf') : t('remove.button', { email: member.email })}</button>
      <a class="button secondary" href="/console/team">${t('remove.cancel')}</a>
    </form>
  </div>`;
  return consolePage({ title: t('remove.title'), nonce, session, section: 'team' }, body);
}

/**
 * What the owner learns of an invite just made. With e-mail on, the link went only to the invited
 * address (opening it proves the address): never shown here. With e-mail off, shown once.
 */
function issuedNotice(t: TeamT, issued: IssuedInvite) {
  const values = {
    email: html`<strong>${issued.invite.email}</strong>`,
    role: t('role.name', { role: issued.invite.role }),
  };
  if (issued.link) {
    return html`<div class="notice" role="status">
      <p>${t.html('invites.issued.link', values)}</p>
      <p><code data-invite-link>${issued.link}</code></p>
    </div>`;
  }
  return issued.emailed
    ? html`<div class="notice" role="status">
        <p>${t.html('invites.issued.emailed', values)}</p>
      </div>`
    : html`<div class="error" role="alert">
        <p>${t.html('invites.issued.notSent', values)}</p>
      </div>`;
}

export interface AcceptInviteModel {
  merchantName: string;
  email: string;
  role: MemberRole;
  error?: string;
}

/**
 * The page an invite link opens: the invited person sets the password of their new login. No
 * session yet, so in the browser's language.
 */
export function renderAcceptInvite(nonce: string, locale: Locale, model: AcceptInviteModel): string {
  const t = teamT(locale);
  const length = { min: CONSOLE_PASSWORD_MIN_CHARS, max: CONSOLE_PASSWORD_MAX_CHARS };
  return consolePage(
    { title: t('join.title'), nonce, locale },
    html`<div class="card login">
      <h1>${t('join.title')}</h1>
      ${messages(null, model.error ?? null)}
      <p>
        ${t.html('join.text', {
          merchant: html`<strong>${model.merchantName}</strong>`,
          role: html`<strong>${t('role.name', { role: model.role })}</strong>`,
          email: html`<strong>${model.email}</strong>`,
        })}
      </p>
      <form method="post">
        <label
          >${t('join.password', length)}
          <input type="password" name="password" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <label
          >${t('join.passwordAgain')}
          <input type="password" name="passwordAgain" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <button type="submit">${t('join.submit')}</button>
      </form>
    </div>`,
  );
}
