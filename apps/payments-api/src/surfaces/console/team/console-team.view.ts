import { html } from '../../../platform/html/html';
import { MEMBER_ROLES, type Invite, type IssuedInvite, type Member, type MemberRole } from '../../../accounts/team';
import { badge, consolePage, csrfField, messages, timeIn } from '../shared/console-layout.view';
import type { ConsoleSession } from '../shared/console-session';
import { CONSOLE_PASSWORD_MAX_CHARS, CONSOLE_PASSWORD_MIN_CHARS } from '../../../accounts/merchants';

export interface TeamModel {
  session: ConsoleSession;
  members: Member[];
  invites: Invite[];
  notice: string | null;
  error: string | null;
  /** Just made: its link is on this page once and never again. */
  issued?: IssuedInvite;
}

const ROLE_TEXT: Record<MemberRole, string> = {
  owner: 'Owner: everything, including the team',
  developer: 'Developer: keys, webhooks, integration test, payments and refunds',
  viewer: 'Viewer: reads only',
};

function roleSelect(id: string, selected: MemberRole) {
  return html`<select id="${id}" name="role">
    ${MEMBER_ROLES.map(
      (role) => html`<option value="${role}" ${role === selected ? html`selected` : null}>${role}</option>`,
    )}
  </select>`;
}

function inviteState(invite: Invite): string {
  if (invite.acceptedAt) return 'accepted';
  if (invite.revokedAt) return 'revoked';
  return invite.expiresAt.getTime() <= Date.now() ? 'expired' : 'open';
}

export function renderTeam(nonce: string, model: TeamModel): string {
  const { session } = model;
  const zone = session.merchant.timeZone;
  const isOwner = session.member.role === 'owner';
  const memberRows = model.members.map(
    (member) => html`<tr>
      <td data-label="Email">${member.email}${member.id === session.member.id ? html` <span class="muted">(you)</span>` : null}</td>
      <td data-label="Role">${badge(session.locale, member.role)}</td>
      <td data-label="Two-step">${member.twoStep ? 'on' : 'off'}</td>
      <td data-label="Since">${timeIn(member.createdAt, zone)}</td>
      ${
        isOwner
          ? html`<td data-label="Change"><div>
            <form method="post" action="/console/team/members/${member.id}/role" class="inline">
              ${csrfField(session)}
              <label for="role-${member.id}">Role of ${member.email}</label>
              ${roleSelect(`role-${member.id}`, member.role)}
              <button type="submit" class="secondary">Change role</button>
            </form>
            <p class="actions">
              <a class="button danger" href="/console/team/members/${member.id}/remove">Remove ${member.email}</a>
            </p>
          </div></td>`
          : null
      }
    </tr>`,
  );
  const inviteRows = model.invites.map(
    (invite) => html`<tr>
      <td data-label="Email">${invite.email}</td>
      <td data-label="Role">${invite.role}</td>
      <td data-label="State">${badge(session.locale, inviteState(invite))}</td>
      <td data-label="Valid until">${timeIn(invite.expiresAt, zone)}</td>
      ${
        isOwner
          ? html`<td data-label="Change">
            ${
              inviteState(invite) === 'open'
                ? html`<form method="post" action="/console/team/invites/${invite.id}/resend">
                    ${csrfField(session)}
                    <button type="submit" class="secondary">Send invite to ${invite.email} again</button>
                  </form>
                  <form method="post" action="/console/team/invites/${invite.id}/revoke">
                    ${csrfField(session)}
                    <button type="submit" class="secondary">Revoke invite to ${invite.email}</button>
                  </form>`
                : null
            }
          </td>`
          : null
      }
    </tr>`,
  );
  const issued = model.issued ? issuedNotice(model.issued) : null;
  const body = html`<h1>Team</h1>
    ${messages(model.notice, model.error)} ${issued}
    <ul>
      ${MEMBER_ROLES.map((role) => html`<li>${ROLE_TEXT[role]}</li>`)}
    </ul>
    <div class="card">
      <h2>Members</h2>
      <div class="scroll" tabindex="0" role="region" aria-label="Members">
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Two-step</th>
              <th scope="col">Since</th>
              ${isOwner ? html`<th scope="col">Change</th>` : null}
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
          <h2>Invite someone</h2>
          <form method="post" action="/console/team/invites">
            ${csrfField(session)}
            <div class="field">
              <label for="invite-email">Email</label>
              <input id="invite-email" type="email" name="email" required maxlength="254" autocomplete="off" />
            </div>
            <div class="field">
              <label for="invite-role">Role</label>
              ${roleSelect('invite-role', 'developer')}
            </div>
            <button type="submit">Make invite</button>
          </form>
        </div>`
        : html`<p class="muted">Only an owner can invite, remove or change members.</p>`
    }
    ${
      model.invites.length === 0
        ? null
        : html`<div class="card">
          <h2>Invites</h2>
          <div class="scroll" tabindex="0" role="region" aria-label="Invites">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">State</th>
                  <th scope="col">Valid until</th>
                  ${isOwner ? html`<th scope="col">Change</th>` : null}
                </tr>
              </thead>
              <tbody>
                ${inviteRows}
              </tbody>
            </table>
          </div>
        </div>`
    }`;
  return consolePage({ title: 'Team', nonce, session, section: 'team' }, body);
}

/** The step before removing a member: who goes, and what that does. */
export function renderRemoveConfirm(nonce: string, session: ConsoleSession, member: Member): string {
  const yourself = member.id === session.member.id;
  const body = html`<div class="card">
    <h1>Remove ${yourself ? 'yourself' : member.email} from ${session.merchant.name}?</h1>
    <p>
      ${yourself ? 'You are' : html`<strong>${member.email}</strong> (${member.role}) is`} signed out everywhere at once
      and can no longer sign in to this merchant's console. What ${yourself ? 'you' : 'they'} did stays in the audit log.
    </p>
    <form method="post" action="/console/team/members/${member.id}/remove" class="actions">
      ${csrfField(session)}
      <button type="submit" class="danger">Remove ${yourself ? 'myself' : member.email}</button>
      <a class="button secondary" href="/console/team">Cancel</a>
    </form>
  </div>`;
  return consolePage({ title: 'Remove member', nonce, session, section: 'team' }, body);
}

/**
 * What the owner learns of an invite just made. With e-mail on, the link went only to the invited
 * address (opening it proves the address): never shown here. With e-mail off, shown once.
 */
function issuedNotice(issued: IssuedInvite) {
  const { email, role } = issued.invite;
  if (issued.link) {
    return html`<div class="notice" role="status">
      <p>
        Invite for <strong>${email}</strong> (${role}) made. Send them this link; it is shown only now, works once and
        for 72 hours (e-mail is off on this payhook, so it was not sent):
      </p>
      <p><code data-invite-link>${issued.link}</code></p>
    </div>`;
  }
  return issued.emailed
    ? html`<div class="notice" role="status">
        <p>
          Invite for <strong>${email}</strong> (${role}) sent to that address. Its link works once and for 72 hours; if it
          does not arrive, send it again below.
        </p>
      </div>`
    : html`<div class="error" role="alert">
        <p>
          Invite for <strong>${email}</strong> (${role}) made, but the e-mail server did not take it. Send it again below.
        </p>
      </div>`;
}

export interface AcceptInviteModel {
  merchantName: string;
  email: string;
  role: MemberRole;
  error?: string;
}

/** The page an invite link opens: the invited person sets the password of their new login. */
export function renderAcceptInvite(nonce: string, model: AcceptInviteModel): string {
  return consolePage(
    { title: 'Join the team', nonce },
    html`<div class="card login">
      <h1>Join the team</h1>
      ${messages(null, model.error ?? null)}
      <p>
        You were invited to the team of <strong>${model.merchantName}</strong> as <strong>${model.role}</strong>, with
        the login <strong>${model.email}</strong>.
      </p>
      <form method="post">
        <label
          >Password (${CONSOLE_PASSWORD_MIN_CHARS} to ${CONSOLE_PASSWORD_MAX_CHARS} characters)
          <input type="password" name="password" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <label
          >Password again
          <input type="password" name="passwordAgain" autocomplete="new-password" required minlength="${CONSOLE_PASSWORD_MIN_CHARS}" maxlength="${CONSOLE_PASSWORD_MAX_CHARS}"
        /></label>
        <button type="submit">Set password and join</button>
      </form>
    </div>`,
  );
}
