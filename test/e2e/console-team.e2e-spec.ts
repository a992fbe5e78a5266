import { generate } from 'otplib';
import {
  CONSOLE_LANGUAGE,
  ConsoleClient,
  approvedMerchant,
  csrfFieldOf,
  postLogin,
  secondStepOf,
  setCookie,
} from '../support/console-client';
import { RecoveryCodeHashes, recoveryCodeDigest } from '../../apps/payments-api/src/accounts/team/recovery-code-hashes';
import { RecoveryCodesKeyer } from '../../apps/payments-api/src/accounts/team/recovery-codes.keyer';
import { INVITE_UNUSABLE } from '../../apps/payments-api/src/accounts/team/team.service';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { expectApiError } from '../support/api-expectations';
import { pollUntil } from '../support/poll-until';

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

const PASSWORD = 'a long enough password 1';
/** Where this file's failing sign-ins come from. */
const FAILING_FROM = '192.0.2.81';
/** The link on the team page right after an invite was made: shown there once. */
const inviteLinkOf = (html: string) => /<code data-invite-link>([^<]+)<\/code>/.exec(html)?.[1];
const pathOf = (link: string) => new URL(link).pathname;
const auditTableOf = (html: string) => html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));

describe('merchant console: team, roles, two-step login, keys and audit log', () => {
  let api: PaymentsApiHarness;
  let shop: Merchant;
  let owner: ConsoleClient;

  beforeAll(async () => {
    // The wrong passwords and codes below come from an address of this file's own (a trusted loopback
    // proxy's X-Forwarded-For): failures count per address in the run's database, across spec files.
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0', TRUST_PROXY: 'loopback' });
    shop = await approvedMerchant(api, { name: 'Team Shop' });
    owner = await ConsoleClient.login(api, shop.email);
  });
  afterAll(() => api.stop());

  /** An owner's invite, used: the new member's signed-in client. */
  async function member(role: 'owner' | 'developer' | 'viewer', email: string): Promise<ConsoleClient> {
    const made = await owner.post('/console/team/invites', { email, role }).expect(200);
    const link = inviteLinkOf(made.text)!;
    await api.http().post(pathOf(link)).type('form').send({ password: PASSWORD, passwordAgain: PASSWORD }).expect(303);
    return ConsoleClient.login(api, email, PASSWORD);
  }

  it('invites by a link that works once for 72 hours, and the audit log shows who did what', async () => {
    const made = await owner
      .post('/console/team/invites', { email: 'Dev@Team.example', role: 'developer' })
      .expect(200);
    const link = inviteLinkOf(made.text);
    expect(link).toMatch(/^http:\/\/[^/]+\/console\/invite\/[A-Za-z0-9_-]{43}$/);
    // Shown once: the team page lists the invite, never its link again.
    const later = await owner.get('/console/team').expect(200);
    expect(inviteLinkOf(later.text)).toBeUndefined();
    expect(later.text).toContain('dev@team.example');
    // Only the token's hash is stored.
    const [stored] = await api.sql<{ token_hash: string }>(`SELECT token_hash FROM member_invites WHERE email = $1`, [
      'dev@team.example',
    ]);
    expect(stored.token_hash).not.toContain(pathOf(link!).split('/').at(-1));

    const page = await api.http().get(pathOf(link!)).set(CONSOLE_LANGUAGE).expect(200);
    expect(page.text).toContain('dev@team.example');
    // Whose team it is, before the person sets a password for it.
    expect(page.text).toContain('the team of <strong>Team Shop</strong>');
    const mismatch = await api
      .http()
      .post(pathOf(link!))
      .set(CONSOLE_LANGUAGE)
      .type('form')
      .send({ password: PASSWORD, passwordAgain: `${PASSWORD}x` })
      .expect(400);
    expect(mismatch.text).toContain('The two new passwords differ.');
    await api
      .http()
      .post(pathOf(link!))
      .type('form')
      .send({ password: PASSWORD, passwordAgain: PASSWORD })
      .expect(303)
      .expect('Location', '/console/login?notice=joined');
    // The login page says so, without the hint meant for a merchant's first owner.
    const joined = await api.inEnglish().get('/console/login?notice=joined').set(CONSOLE_LANGUAGE).expect(200);
    expect(joined.text).toContain('You joined the team. Log in with your e-mail and the password you just set.');
    expect(joined.text).not.toContain('The login is set when payhook approves');
    expect(
      (await api.inEnglish().get('/console/login?notice=constructor').set(CONSOLE_LANGUAGE).expect(200)).text,
    ).toContain('The login is set when payhook approves');
    // A used link is refused, and changes nothing.
    const reused = await api
      .http()
      .post(pathOf(link!))
      .set(CONSOLE_LANGUAGE)
      .type('form')
      .send({ password: 'another long password', passwordAgain: 'another long password' })
      .expect(404);
    expect(reused.text).toContain('used already, has expired');
    await api.http().get(pathOf(link!)).expect(404);
    const developer = await ConsoleClient.login(api, 'dev@team.example', PASSWORD);
    await developer.get('/console/team').expect(200);
    await postLogin(api, 'dev@team.example', 'another long password', 401, FAILING_FROM);

    // An expired invite (72 hours later) is refused alike.
    const second = await owner
      .post('/console/team/invites', { email: 'late@team.example', role: 'viewer' })
      .expect(200);
    await api.sql(`UPDATE member_invites SET expires_at = now() - interval '1 second' WHERE email = $1`, [
      'late@team.example',
    ]);
    await api
      .http()
      .post(pathOf(inviteLinkOf(second.text)!))
      .type('form')
      .send({ password: PASSWORD, passwordAgain: PASSWORD })
      .expect(404);
    expect(await api.sql(`SELECT 1 FROM merchant_members WHERE email = 'late@team.example'`)).toEqual([]);

    const audit = await owner.get('/console/audit').expect(200);
    const rows = auditTableOf(audit.text);
    expect(rows).toContain('member.invited');
    expect(rows).toContain('member.joined');
    expect(rows).toContain(shop.email);
    const byAction = auditTableOf((await owner.get('/console/audit?action=member.joined').expect(200)).text);
    // The member who joined named by e-mail, not only by an id the pages never show.
    const [{ id: devId }] = await api.sql<{ id: string }>(`SELECT id FROM merchant_members WHERE email = $1`, [
      'dev@team.example',
    ]);
    expect(byAction).toContain(`<code>dev@team.example</code> <span class="muted">(<code>${devId}</code>)</span>`);
    expect(byAction).not.toContain('member.invited');
  });

  it('changes a password after the current one, signs the other sessions out and audits it', async () => {
    const email = 'new-password@team.example';
    const person = await member('viewer', email);
    const elsewhere = await ConsoleClient.login(api, email, PASSWORD);
    const NEW = 'a brand new password 22';
    const change = (fields: Record<string, string>) =>
      person.post('/console/security/password', fields).set('X-Forwarded-For', FAILING_FROM);
    const short = await change({ password: PASSWORD, newPassword: 'short', newPasswordAgain: 'short' }).expect(400);
    expect(short.text).toContain('The new password needs 12 to 200 characters.');
    const differ = await change({ password: PASSWORD, newPassword: NEW, newPasswordAgain: `${NEW}!` }).expect(400);
    expect(differ.text).toContain('The two new passwords differ.');
    const wrong = await change({ password: 'not my password 1', newPassword: NEW, newPasswordAgain: NEW }).expect(400);
    expect(wrong.text).toContain('Your current password is wrong.');
    await postLogin(api, email, NEW, 401, FAILING_FROM);

    await change({ password: PASSWORD, newPassword: NEW, newPasswordAgain: NEW })
      .expect(303)
      .expect('Location', '/console/security?notice=password-changed');
    expect((await person.get('/console/security?notice=password-changed').expect(200)).text).toContain(
      'Password changed. Your other sessions are signed out.',
    );
    await elsewhere.get('/console/payments').expect(303).expect('Location', '/console/login');
    await postLogin(api, email, PASSWORD, 401, FAILING_FROM);
    await postLogin(api, email, NEW, 303);
    const audit = auditTableOf((await owner.get('/console/audit?action=member.password_changed').expect(200)).text);
    expect(audit).toContain(`<code>${email}</code>`);
  });

  it('says that a forgotten password cannot be reset by e-mail when e-mail is off, and what to do instead', async () => {
    for (const answer of [
      await api.inEnglish().get('/console/login/forgot').expect(200),
      await api
        .inEnglish()
        .post('/console/login/forgot')
        .type('form')
        .send({ email: 'someone@team.example' })
        .expect(200),
    ]) {
      expect(answer.text).toContain('This payhook sends no e-mail, so it cannot send a reset link.');
      expect(answer.text).not.toContain('<form');
    }
  });

  it("lets the operator turn off a member's two-step login (phone and codes lost), audited as the operator's", async () => {
    const person = await member('viewer', 'lost-phone@team.example');
    const setup = await person.post('/console/security/two-step', { password: PASSWORD }).expect(200);
    const secret = /<code data-totp-secret>([A-Z2-7]+)<\/code>/.exec(setup.text)![1];
    await person.post('/console/security/two-step/confirm', { code: await generate({ secret }) }).expect(200);
    const asked = await postLogin(api, 'lost-phone@team.example', PASSWORD, 303);
    expect(asked.headers.location).toBe('/console/login/two-step');

    const reset = (email: string, merchantId = shop.merchantId) =>
      api.admin().post(`/admin/v1/merchants/${merchantId}/members/two-step-reset`).send({ email });
    // Only a member of that merchant, by the address of the login.
    expectApiError(await reset('nobody@team.example'), { status: 404, code: 'resource_not_found' });
    const other = await approvedMerchant(api, { name: 'Other Team' });
    expectApiError(await reset('lost-phone@team.example', other.merchantId), {
      status: 404,
      code: 'resource_not_found',
    });
    await reset('Lost-Phone@team.example').expect(204);

    // The password alone signs in now; the codes are gone; the team sees two-step off.
    const signedIn = await postLogin(api, 'lost-phone@team.example', PASSWORD, 303);
    expect(signedIn.headers.location).toBe('/console/payments');
    const [{ id }] = await api.sql<{ id: string }>(`SELECT id FROM merchant_members WHERE email = $1`, [
      'lost-phone@team.example',
    ]);
    expect(await api.sql(`SELECT 1 FROM member_recovery_codes WHERE member_id = $1`, [id])).toEqual([]);
    const audit = auditTableOf((await owner.get('/console/audit?action=member.two_step_reset').expect(200)).text);
    expect(audit).toContain('<code>operator</code>');
    expect(audit).toContain('<code>lost-phone@team.example</code>');
  });

  it('reserves no address by an accepted invite: a login is per merchant, and a password opening several asks which', async () => {
    // An owner invites an address that is not his and, holding the link (e-mail is off), accepts it himself.
    const victim = 'victim@elsewhere.example';
    const squatterPassword = 'the squatter chose this one';
    const made = await owner.post('/console/team/invites', { email: victim, role: 'viewer' }).expect(200);
    await api
      .http()
      .post(pathOf(inviteLinkOf(made.text)!))
      .type('form')
      .send({ password: squatterPassword, passwordAgain: squatterPassword })
      .expect(303);

    // The address's owner still gets a merchant of their own approved with it, and signs in there alone.
    const created = await api.admin().post('/admin/v1/merchants').send({ name: 'Victim Shop' }).expect(201);
    const victimShop = created.body.data.id as string;
    await api
      .admin()
      .post(`/admin/v1/merchants/${victimShop}/approve`)
      .send({ consoleEmail: victim, consolePassword: PASSWORD })
      .expect(200);
    const own = await ConsoleClient.login(api, victim, PASSWORD);
    expect((await own.get('/console/team').expect(200)).text).toContain('Victim Shop');
    // The squatter's password opens only the login he made, at his own merchant.
    const squatter = await ConsoleClient.login(api, victim, squatterPassword);
    expect((await squatter.get('/console/team').expect(200)).text).toContain('Team Shop');

    // Another team's invite to the address works too; with the same password, the login asks which merchant.
    const elsewhere = await approvedMerchant(api, { name: 'Elsewhere Shop' });
    const inviter = await ConsoleClient.login(api, elsewhere.email);
    const invited = await inviter.post('/console/team/invites', { email: victim, role: 'developer' }).expect(200);
    await api
      .http()
      .post(pathOf(inviteLinkOf(invited.text)!))
      .type('form')
      .send({ password: PASSWORD, passwordAgain: PASSWORD })
      .expect(303);
    /** The password step as a browser sends it, answered with the choice of merchant. */
    async function askWhich() {
      const page = await api.inEnglish().get('/console/login').expect(200);
      const cookie = setCookie(page, 'payhook_console_login')!.split(';')[0];
      const asked = await api
        .inEnglish()
        .post('/console/login')
        .set('Cookie', cookie)
        .type('form')
        .send({ csrf: csrfFieldOf(page.text), email: victim, password: PASSWORD })
        .expect(200);
      expect(asked.text).toContain('Choose a merchant');
      const offered = [...asked.text.matchAll(/name="member" value="(mem_[^"]+)">([^<]+)</g)];
      const idOf = (name: string) => offered.find(([, , shown]) => shown === name)![1];
      const choice = /name="choice" value="([^"]+)"/.exec(asked.text)![1];
      const choose = (member: string) =>
        api
          .inEnglish()
          .post('/console/login/choose')
          .set('Cookie', cookie)
          .type('form')
          .send({ csrf: csrfFieldOf(asked.text), choice, member });
      return { names: offered.map(([, , shown]) => shown).sort(), idOf, choose };
    }
    const refusedChoice = 'That choice was made already or has expired';

    const which = await askWhich();
    expect(which.names).toEqual(['Elsewhere Shop', 'Victim Shop']);
    const chosen = await which.choose(which.idOf('Elsewhere Shop')).expect(303).expect('Location', '/console/payments');
    const session = setCookie(chosen, 'payhook_console')!.split(';')[0];
    const team = await api.inEnglish().get('/console/team').set('Cookie', session).expect(200);
    expect(team.text).toContain('Elsewhere Shop');
    // A choice is made once.
    expect((await which.choose(which.idOf('Victim Shop')).expect(401)).text).toContain(refusedChoice);

    // The login the password did not open (the squatter's) cannot be chosen, and the try uses the choice up.
    const [{ id: squatted }] = await api.sql<{ id: string }>(
      `SELECT id FROM merchant_members WHERE email = $1 AND merchant_id = $2`,
      [victim, shop.merchantId],
    );
    const probing = await askWhich();
    expect((await probing.choose(squatted).expect(401)).text).toContain(refusedChoice);
    await probing.choose(probing.idOf('Victim Shop')).expect(401);
    // A choice lasts 5 minutes (moved by hand).
    const late = await askWhich();
    await api.sql(`UPDATE console_login_choices SET expires_at = now() - interval '1 second'`);
    await late.choose(late.idOf('Victim Shop')).expect(401);
    // A password changed after the choice was offered opens nothing with the old one.
    const stale = await askWhich();
    await api.sql(`UPDATE merchant_members SET password_hash = password_hash || 'changed' WHERE email = $1`, [victim]);
    await stale.choose(stale.idOf('Victim Shop')).expect(401);

    // Each merchant's log says who joined: the operator's approval made the first owner.
    const joined = await api.sql<{ merchant_id: string; actor: string }>(
      `SELECT merchant_id, actor FROM audit_log WHERE action = 'member.joined' AND target IN
         (SELECT id FROM merchant_members WHERE email = $1)`,
      [victim],
    );
    expect(joined).toEqual(
      expect.arrayContaining([
        { merchant_id: victimShop, actor: 'operator' },
        { merchant_id: shop.merchantId, actor: victim },
        { merchant_id: elsewhere.merchantId, actor: victim },
      ]),
    );
    expect(joined).toHaveLength(3);
  });

  it('answers an invite to a member of the team as an unusable link, and the same address accepts only once', async () => {
    const made = await owner.post('/console/team/invites', { email: 'twice@team.example', role: 'viewer' }).expect(200);
    const again = await owner
      .post('/console/team/invites', { email: 'twice@team.example', role: 'viewer' })
      .expect(200);
    const accept = (html: string) =>
      api
        .http()
        .post(pathOf(inviteLinkOf(html)!))
        .set(CONSOLE_LANGUAGE)
        .type('form')
        .send({ password: PASSWORD, passwordAgain: PASSWORD });
    await accept(made.text).expect(303);
    // The second link meets a member already: the page of a used, expired or unknown link.
    expect((await accept(again.text).expect(404)).text).toContain(INVITE_UNUSABLE);
    expect(
      await api.sql(`SELECT 1 FROM merchant_members WHERE email = 'twice@team.example' AND merchant_id = $1`, [
        shop.merchantId,
      ]),
    ).toHaveLength(1);
  });

  it('never removes or demotes the last owner, and a removed member is signed out at once', async () => {
    const [me] = await api.sql<{ id: string }>(`SELECT id FROM merchant_members WHERE email = $1`, [shop.email]);
    const demote = await owner.post(`/console/team/members/${me.id}/role`, { role: 'developer' }).expect(409);
    expect(demote.text).toContain('The last owner keeps the owner role');
    const remove = await owner.post(`/console/team/members/${me.id}/remove`).expect(409);
    expect(remove.text).toContain('The last owner cannot be removed');
    expect(await api.sql(`SELECT role FROM merchant_members WHERE id = $1`, [me.id])).toEqual([{ role: 'owner' }]);

    const leaving = await member('developer', 'leaving@team.example');
    const [row] = await api.sql<{ id: string }>(`SELECT id FROM merchant_members WHERE email = $1`, [
      'leaving@team.example',
    ]);
    // The team page only links to a confirmation step; that step names who goes and posts the removal.
    const team = (await owner.get('/console/team').expect(200)).text;
    expect(team).not.toContain(`action="/console/team/members/${row.id}/remove"`);
    expect(team).toContain(`href="/console/team/members/${row.id}/remove"`);
    const confirm = (await owner.get(`/console/team/members/${row.id}/remove`).expect(200)).text;
    expect(confirm).toContain('Remove leaving@team.example from Team Shop?');
    expect(confirm).toContain(`<form method="post" action="/console/team/members/${row.id}/remove"`);
    expect(confirm).toContain('href="/console/team">Cancel</a>');
    // Looking at the step changed nothing.
    await leaving.get('/console/payments').expect(200);
    await owner.post(`/console/team/members/${row.id}/remove`).expect(303);
    await leaving.get('/console/payments').expect(303).expect('Location', '/console/login');
    await postLogin(api, 'leaving@team.example', PASSWORD, 401, FAILING_FROM);
    // The audit names who left by e-mail: the id names nobody once the member is gone.
    const audit = auditTableOf((await owner.get('/console/audit?action=member.removed').expect(200)).text);
    expect(audit).toContain('<code>leaving@team.example</code>');
  });

  it('checks the role on the server: a viewer can read but not refund, change keys or the team', async () => {
    const viewer = await member('viewer', 'viewer@team.example');
    await viewer.get('/console/payments').expect(200);
    await viewer.get('/console/developers').expect(200);
    await viewer.get('/console/audit').expect(200);
    const payment = await api.sql<{ id: string }>(
      `INSERT INTO payments (id, merchant_id, livemode, order_id, customer_id, amount, currency, status, return_url,
                             pay_suffix, expires_at, created_at, completed_at)
       VALUES ('pay_teamrefund000000000001', $1, false, 'team-1', 'c', 5000, 'KRW', 'completed', 'https://s.example',
               'team-refund-1', now() + interval '1 hour', now(), now()) RETURNING id`,
      [shop.merchantId],
    );
    const refused = await viewer
      .post(`/console/payments/${payment[0].id}/refunds`, { amount: '1000', mode: 'test' })
      .expect(403);
    expect(refused.text).toContain('This needs the developer role; you are viewer.');
    expect(await api.sql(`SELECT 1 FROM refunds WHERE payment_id = $1`, [payment[0].id])).toEqual([]);
    await viewer.post('/console/developers/keys', { mode: 'test' }).expect(403);
    await viewer.post('/console/team/invites', { email: 'x@team.example', role: 'owner' }).expect(403);
    expect(await api.sql(`SELECT 1 FROM member_invites WHERE email = 'x@team.example'`)).toEqual([]);
  });

  it('two-step login: a code from the app after the password, never the same code twice, recovery codes once', async () => {
    const person = await member('developer', 'totp@team.example');
    // The password first: a session left open is not enough.
    const noPassword = await person.post('/console/security/two-step', { password: 'not my password 1' }).expect(400);
    expect(noPassword.text).toContain('That password is wrong.');
    expect(noPassword.text).not.toContain('data-totp-secret');
    const setup = await person.post('/console/security/two-step', { password: PASSWORD }).expect(200);
    const secret = /<code data-totp-secret>([A-Z2-7]+)<\/code>/.exec(setup.text)![1];
    expect(setup.text).toMatch(/<svg[^>]*viewBox/); // the QR code, served inline by payhook
    // A wrong code turns nothing on.
    const wrong = await person.post('/console/security/two-step/confirm', { code: '000000' }).expect(400);
    // Nor does it show the secret again: a session left open must not read it without the password.
    expect(wrong.text).not.toContain('data-totp-secret');
    expect(wrong.text).toContain('6-digit code from the app');
    const confirmed = await person
      .post('/console/security/two-step/confirm', { code: await generate({ secret }) })
      .expect(200);
    const recovery = [...confirmed.text.matchAll(/<li><code>([a-z2-9]{5}-[a-z2-9]{5})<\/code><\/li>/g)].map(
      (m) => m[1],
    );
    expect(recovery).toHaveLength(10);
    const [stored] = await api.sql<{ totp_secret: string }>(
      `SELECT totp_secret FROM merchant_members WHERE email = $1`,
      ['totp@team.example'],
    );
    expect(stored.totp_secret).not.toContain(secret); // sealed under SECRETS_KEY
    // The recovery codes keyed under SECRETS_KEY: a copy of the database cannot test guesses against them.
    const [{ id: memberId }] = await api.sql<{ id: string }>(`SELECT id FROM merchant_members WHERE email = $1`, [
      'totp@team.example',
    ]);
    const storedCodes = await api.sql<{ code_hash: string }>(
      `SELECT code_hash FROM member_recovery_codes WHERE member_id = $1`,
      [memberId],
    );
    expect(storedCodes).toHaveLength(10);
    for (const { code_hash } of storedCodes) {
      expect(code_hash).toMatch(/^hmac1:[0-9a-f]{8}:[0-9a-f]{64}$/);
      for (const code of recovery) expect(code_hash).not.toContain(recoveryCodeDigest(memberId, code));
    }

    /** The password step: a session that opens nothing until its code is given. */
    async function passwordStep() {
      const answer = await postLogin(api, 'totp@team.example', PASSWORD, 303, FAILING_FROM);
      expect(answer.headers.location).toBe('/console/login/two-step');
      const step = await secondStepOf(api, answer, FAILING_FROM);
      await api
        .inEnglish()
        .get('/console/payments')
        .set('Cookie', step.cookie)
        .expect(303)
        .expect('Location', '/console/login/two-step');
      return step;
    }

    // The next time step's code: the one used to turn it on is spent.
    const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const first = await passwordStep();
    await first.send('123456').expect(401);
    const opened = await first.send(next).expect(303).expect('Location', '/console/payments');
    const openedCookie = setCookie(opened, 'payhook_console')!.split(';')[0];
    await api.inEnglish().get('/console/payments').set('Cookie', openedCookie).expect(200);
    // The same code again, in its window: refused.
    const replay = await passwordStep();
    const refused = await replay.send(next).expect(401);
    expect(refused.text).toContain('wrong or was used already');
    // A recovery code works once.
    await replay.send(recovery[0]).expect(303);
    const again = await passwordStep();
    await again.send(recovery[0]).expect(401);
    await again.send(recovery[1].toUpperCase()).expect(303);
    // A code stored before codes were keyed (its bare salted SHA-256) is keyed at start and keeps working.
    await api.sql(`UPDATE member_recovery_codes SET code_hash = $3 WHERE member_id = $1 AND code_hash = $2`, [
      memberId,
      api.app.get(RecoveryCodeHashes).current(memberId, recovery[2]),
      recoveryCodeDigest(memberId, recovery[2]),
    ]);
    await expect(api.app.get(RecoveryCodesKeyer).keyUnkeyed()).resolves.toBe(1);
    await expect(api.sql(`SELECT 1 FROM member_recovery_codes WHERE code_hash NOT LIKE 'hmac1:%'`)).resolves.toEqual(
      [],
    );
    await (await passwordStep()).send(recovery[2]).expect(303);
    // Five wrong codes end the half-signed-in session: the password is asked again.
    const guessing = await passwordStep();
    for (let n = 1; n < 5; n++) await guessing.send('000000').expect(401);
    const ended = await guessing.send('000000').expect(401);
    expect(ended.text).toContain('Too many wrong codes: sign in again with your password.');
    await api
      .inEnglish()
      .get('/console/login/two-step')
      .set('Cookie', guessing.cookie)
      .expect(303)
      .expect('Location', '/console/login');
    // A half-signed-in session can still sign out.
    const leaving = await passwordStep();
    const form = await api.inEnglish().get('/console/login/two-step').set('Cookie', leaving.cookie).expect(200);
    await api
      .inEnglish()
      .post('/console/logout')
      .set('Cookie', leaving.cookie)
      .type('form')
      .send({ csrf: csrfFieldOf(form.text) })
      .expect(303)
      .expect('Location', '/console/login');
    const audit = auditTableOf((await owner.get('/console/audit?actor=totp%40team.example').expect(200)).text);
    expect(audit).toContain('member.two_step_enabled');
  });

  it('invites: at most 3 a day to one address from all teams, and 20 a day from one team', async () => {
    const teams = await Promise.all([1, 2].map((n) => approvedMerchant(api, { name: `Inviting Shop ${n}` })));
    // One after the other: a client has one password check in flight at a time.
    const first = await ConsoleClient.login(api, teams[0].email);
    const second = await ConsoleClient.login(api, teams[1].email);
    const invite = (owner: ConsoleClient, email: string) =>
      owner.post('/console/team/invites', { email, role: 'viewer' });
    await invite(first, 'popular@team.example').expect(200);
    await invite(first, 'popular@team.example').expect(200);
    await invite(second, 'popular@team.example').expect(200);
    const tooMany = await invite(second, 'popular@team.example').expect(429);
    expect(tooMany.text).toContain('Too many invites today, from this team or to this address');

    for (let n = 2; n < 20; n++) await invite(first, `person-${n}@team.example`).expect(200);
    await invite(first, 'one-more@team.example').expect(429);
    // A day later (moved by hand), the team may invite again.
    await api.sql(`UPDATE member_invites SET created_at = created_at - interval '25 hours' WHERE merchant_id = $1`, [
      teams[0].merchantId,
    ]);
    await invite(first, 'one-more@team.example').expect(200);
  });

  it('keys: at most 10 active per mode, a rolled key counting while it keeps working', async () => {
    const many = await approvedMerchant(api, { name: 'Many Keys Shop' });
    const keyOwner = await ConsoleClient.login(api, many.email);
    const activeTestKeys = async () =>
      (
        await api.sql<{ id: string }>(
          `SELECT id FROM api_keys WHERE merchant_id = $1 AND mode = 'test' AND revoked_at IS NULL
             AND (expires_at IS NULL OR expires_at > now()) ORDER BY created_at`,
          [many.merchantId],
        )
      ).map((row) => row.id);
    // The operator's key at approval is one of them.
    for (let made = (await activeTestKeys()).length; made < 10; made++) {
      await keyOwner.post('/console/developers/keys', { mode: 'test' }).expect(200);
    }
    const refused = await keyOwner.post('/console/developers/keys', { mode: 'test' }).expect(409);
    expect(refused.text).toContain('A merchant has at most 10 active test keys');
    const [oldest, second] = await activeTestKeys();
    await keyOwner.post(`/console/developers/keys/${oldest}/roll`, { overlapDays: '1' }).expect(409);
    await keyOwner.post(`/console/developers/keys/${oldest}/roll`, { overlapDays: '0' }).expect(200);
    await keyOwner.post('/console/developers/keys', { mode: 'test' }).expect(409);
    await keyOwner.post(`/console/developers/keys/${second}/revoke`).expect(303);
    await keyOwner.post('/console/developers/keys', { mode: 'test' }).expect(200);
    expect(await activeTestKeys()).toHaveLength(10);
  });

  it('keys: made and shown once, rolled with the old key working for its overlap, revoked within 5 seconds', async () => {
    const developer = await member('developer', 'keys@team.example');
    const made = await developer.post('/console/developers/keys', { mode: 'test' }).expect(200);
    const key = /<code data-new-api-key>([^<]+)<\/code>/.exec(made.text)![1];
    expect(key).toMatch(/^svc_test_/);
    await api.as({ key }).get('/v1/payments').expect(200);
    expect((await developer.get('/console/developers').expect(200)).text).not.toContain(key);
    // Live keys open once the merchant is live.
    const live = await developer.post('/console/developers/keys', { mode: 'live' }).expect(403);
    expect(live.text).toContain('Live keys open once the integration test has passed.');

    const [{ id: keyId }] = await api.sql<{ id: string }>(`SELECT id FROM api_keys WHERE key_last4 = $1`, [
      key.slice(-4),
    ]);
    const rolled = await developer.post(`/console/developers/keys/${keyId}/roll`, { overlapDays: '1' }).expect(200);
    const newKey = /<code data-new-api-key>([^<]+)<\/code>/.exec(rolled.text)![1];
    expect(rolled.text).toContain('the old key keeps working for 1 day');
    expect(rolled.text).toContain('works until');
    // A key is rolled once: the form sent again makes no second new key.
    await developer.post(`/console/developers/keys/${keyId}/roll`, { overlapDays: '1' }).expect(404);
    await developer.post(`/console/developers/keys/${keyId}/roll`, { overlapDays: '' }).expect(400);
    await api.as({ key }).get('/v1/payments').expect(200);
    await api.as({ key: newKey }).get('/v1/payments').expect(200);
    // A day later (moved by hand: nobody waits a day), the old key stops within 5 seconds.
    await api.sql(`UPDATE api_keys SET expires_at = now() WHERE id = $1`, [keyId]);
    await pollUntil(
      async () => (await api.as({ key }).get('/v1/payments')).status,
      (status) => status === 401,
    );
    await api.as({ key: newKey }).get('/v1/payments').expect(200);

    const [{ id: newKeyId }] = await api.sql<{ id: string }>(
      `SELECT id FROM api_keys WHERE key_last4 = $1 AND id <> $2`,
      [newKey.slice(-4), keyId],
    );
    await developer.post(`/console/developers/keys/${newKeyId}/revoke`).expect(303);
    await pollUntil(
      async () => (await api.as({ key: newKey }).get('/v1/payments')).status,
      (status) => status === 401,
    );
    // Another merchant's key is not this merchant's to change.
    await developer.post(`/console/developers/keys/${shop.keyId}/revoke`).expect(303);
    const foreign = await approvedMerchant(api, { name: 'Other Shop' });
    await developer.post(`/console/developers/keys/${foreign.keyId}/revoke`).expect(404);
    await api.as(foreign).get('/v1/payments').expect(200);

    const audit = auditTableOf((await owner.get('/console/audit?actor=keys%40team.example').expect(200)).text);
    for (const action of ['api_key.created', 'api_key.rolled', 'api_key.revoked']) expect(audit).toContain(action);
  });

  it('records changes made through the API with the key as actor, each in the transaction of its change', async () => {
    // The keys test revoked the first test key: a fresh one.
    const { key, keyId } = await api.issueKey(shop.merchantId, 'test');
    const merchantApi = api.as({ key });
    const endpoint = await merchantApi
      .post('/v1/webhook-endpoints')
      .send({ url: 'https://shop.example/hook' })
      .expect(201);
    await merchantApi.post(`/v1/webhook-endpoints/${endpoint.body.data.id}/rotate-secret`).send({}).expect(200);
    const created = await merchantApi
      .post('/v1/payments')
      .set('Idempotency-Key', `audit-${Date.now()}`)
      .send(paymentBody())
      .expect(201);
    await merchantApi.post(`/v1/payments/${created.body.data.id}/cancel`).expect(200);
    // A refused change records nothing: a second cancel answers the canceled payment, changing nothing.
    await merchantApi.post(`/v1/payments/${created.body.data.id}/cancel`).expect(200);
    const rows = await api.sql<{ action: string; target: string }>(
      `SELECT action, target FROM audit_log WHERE merchant_id = $1 AND actor = $2 ORDER BY created_at, id`,
      [shop.merchantId, keyId],
    );
    expect(rows).toEqual([
      { action: 'webhook_endpoint.created', target: endpoint.body.data.id },
      { action: 'signing_secret.rotated', target: endpoint.body.data.id },
      { action: 'payment.canceled', target: created.body.data.id },
    ]);
    const page = auditTableOf((await owner.get(`/console/audit?actor=${keyId}`).expect(200)).text);
    expect(page).toContain('signing_secret.rotated');
    // The key named as the developers page shows it, its id beside it.
    expect(page).toContain(
      `<code>svc_test_…${key.slice(-4)}</code> <span class="muted">(<code>${keyId}</code>)</span>`,
    );
  });

  it("audits the singular PUT as what it did: the mode's first endpoint created, then updated", async () => {
    const merchant = await api.merchantWithKey('test');
    await api.as(merchant).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/a' }).expect(200);
    await api.as(merchant).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/b' }).expect(200);
    const [{ id }] = await api.sql<{ id: string }>(`SELECT id FROM webhook_endpoints WHERE merchant_id = $1`, [
      merchant.merchantId,
    ]);
    const rows = await api.sql<{ action: string; target: string }>(
      `SELECT action, target FROM audit_log WHERE merchant_id = $1 ORDER BY created_at, id`,
      [merchant.merchantId],
    );
    expect(rows).toEqual([
      { action: 'webhook_endpoint.created', target: id },
      { action: 'webhook_endpoint.updated', target: id },
    ]);
  });

  it('shows the endpoint the singular PUT made with its id and the controls of any other: disable, delete', async () => {
    const endpointShop = await approvedMerchant(api, { name: 'Endpoint Shop' });
    const client = await ConsoleClient.login(api, endpointShop.email);
    await api.as(endpointShop).put('/v1/webhook-endpoint').send({ url: 'https://shop.example/first' }).expect(200);
    const [{ id }] = await api.sql<{ id: string }>(`SELECT id FROM webhook_endpoints WHERE merchant_id = $1`, [
      endpointShop.merchantId,
    ]);
    const testCard = (page: string) =>
      page.slice(page.indexOf('id="endpoint-test"'), page.indexOf('</section>', page.indexOf('id="endpoint-test"')));
    const card = testCard((await client.get('/console/developers').expect(200)).text);
    expect(card).toContain(`<code>${id}</code>`);
    expect(card).toContain(`action="/console/developers/endpoints/${id}/disable"`);
    expect(card).toContain(`href="/console/developers/endpoints/${id}/delete?mode=test"`);

    await client.post(`/console/developers/endpoints/${id}/disable`, { mode: 'test' }).expect(303);
    const disabled = testCard((await client.get('/console/developers').expect(200)).text);
    expect(disabled).toContain('Re-enable endpoint');
    expect(disabled).not.toContain(`/endpoints/${id}/disable"`);
    await client.get(`/console/developers/endpoints/${id}/delete?mode=test`).expect(200);
    await client.post(`/console/developers/endpoints/${id}/delete`, { mode: 'test' }).expect(303);
    expect(testCard((await client.get('/console/developers').expect(200)).text)).toContain('No endpoint set.');
  });

  it('refuses an endpoint description of more than one line in the console, as the API does', async () => {
    const added = await owner
      .post('/console/developers/endpoints', {
        mode: 'test',
        url: 'https://shop.example/hooks',
        description: 'accounting\u2028ACTION REQUIRED: sign in at evil.example',
        'events-listed': '1',
        events: ['payment.completed'],
      })
      .expect(400);
    expect(added.text).toContain('A description is one line of at most 200 printable characters.');
  });
});
