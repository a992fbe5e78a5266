import { createHash } from 'node:crypto';
import { ConsoleSessionsRepository } from '../../apps/payments-api/src/accounts/console-logins/console-sessions.repository';
import {
  approvedMerchant,
  CONSOLE_PASSWORD,
  ConsoleClient,
  csrfFieldOf,
  postLogin,
  setCookie,
} from '../support/console-client';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { SmtpInbox } from '../support/smtp-inbox';

const NEW_PASSWORD = 'a brand new console password';

/**
 * A member who forgot the password asks for a link on the login page; it is e-mailed, works once
 * for an hour, and sets a new password. The answer never tells whether an address has a login.
 * Requests count per client address, so each test asks from addresses of its own (X-Forwarded-For
 * through a trusted loopback proxy).
 */
describe('console: a forgotten password is reset by an e-mailed link', () => {
  let api: PaymentsApiHarness;
  let inbox: SmtpInbox;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    api = await PaymentsApiHarness.start({ TRUST_PROXY: 'loopback', SMTP_URL: inbox.url });
  });
  afterAll(async () => {
    await api?.stop();
    await inbox?.stop();
  });

  /** Fills in the "Forgot your password?" form as a browser would, from `from`; expects `status`. */
  async function askForLink(email: string, from: string, status = 200) {
    const page = await api.inEnglish().get('/console/login/forgot').expect(200);
    const cookie = (setCookie(page, 'payhook_console_login') ?? '').split(';')[0];
    return api
      .inEnglish()
      .post('/console/login/forgot')
      .set('Cookie', cookie)
      .set('X-Forwarded-For', from)
      .type('form')
      .send({ csrf: csrfFieldOf(page.text), email })
      .expect(status);
  }

  const mailsTo = (email: string) => inbox.received.filter((mail) => mail.to.includes(email));
  const tokenIn = (text: string) => /\/console\/reset\/([A-Za-z0-9_-]{43})\n/.exec(text)![1];
  const requestsFor = (email: string) =>
    api.sql<{ token_hash: string | null }>(
      `SELECT token_hash FROM password_reset_requests WHERE email = $1 ORDER BY id`,
      [email],
    );
  /** The page without what differs on every answer (the CSP nonce) or names the address. */
  const shapeOf = (text: string, email: string) => text.replaceAll(email, '<email>').replace(/nonce="[^"]+"/g, '');

  it('sets a new password through the link once; every session ends; the old password stops; audited', async () => {
    const shop = await approvedMerchant(api);
    const signedIn = await ConsoleClient.login(api, shop.email, CONSOLE_PASSWORD, '192.0.2.70');
    const login = await api.inEnglish().get('/console/login').expect(200);
    expect(login.text).toContain('href="/console/login/forgot"');

    const asked = await askForLink(shop.email, '192.0.2.70');
    expect(asked.text).toContain('has a console login, an e-mail with a link to set a new password is on its way');
    const [mail] = await pollUntil(
      async () => mailsTo(shop.email),
      (mails) => mails.length === 1,
    );
    expect(mail.subject).toBe('Set a new password for your payhook console login');
    expect(mail.text).toContain('the link works once, for 60 minutes');
    const token = tokenIn(mail.text);
    // Only the token's SHA-256 is stored.
    const [stored] = await requestsFor(shop.email);
    expect(stored.token_hash).toBe(createHash('sha256').update(token).digest('hex'));

    const form = await api.inEnglish().get(`/console/reset/${token}`).expect(200);
    expect(form.text).toContain(shop.email);
    const short = await api
      .inEnglish()
      .post(`/console/reset/${token}`)
      .type('form')
      .send({ password: 'short', passwordAgain: 'short' });
    expect(short.status).toBe(400);
    expect(short.text).toContain('The new password needs 12 to 200 characters.');
    const differ = await api
      .inEnglish()
      .post(`/console/reset/${token}`)
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: `${NEW_PASSWORD}!` });
    expect(differ.status).toBe(400);

    const reset = await api
      .inEnglish()
      .post(`/console/reset/${token}`)
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: NEW_PASSWORD })
      .expect(303);
    expect(reset.headers.location).toBe('/console/login?notice=password_reset');
    const notice = await api.inEnglish().get('/console/login?notice=password_reset').expect(200);
    expect(notice.text).toContain('Your new password is set');

    // The session that was open ends; the old password is refused, the new one works.
    const after = await signedIn.get('/console/payments');
    expect(after.status).toBe(303);
    expect(after.headers.location).toBe('/console/login');
    await postLogin(api, shop.email, CONSOLE_PASSWORD, 401, '192.0.2.71');
    await ConsoleClient.login(api, shop.email, NEW_PASSWORD, '192.0.2.71');

    // The link worked once.
    const again = await api.inEnglish().get(`/console/reset/${token}`).expect(404);
    expect(again.text).toContain('This link was used already, has expired');
    await api
      .inEnglish()
      .post(`/console/reset/${token}`)
      .type('form')
      .send({ password: CONSOLE_PASSWORD, passwordAgain: CONSOLE_PASSWORD })
      .expect(404);
    await ConsoleClient.login(api, shop.email, NEW_PASSWORD, '192.0.2.71');

    const audit = await api.sql<{ actor: string; action: string }>(
      `SELECT a.actor, a.action FROM audit_log a JOIN merchant_members m ON m.id = a.target
       WHERE a.merchant_id = $1 AND m.email = $2 AND a.action = 'member.password_reset'`,
      [shop.merchantId, shop.email],
    );
    expect(audit).toEqual([{ actor: shop.email, action: 'member.password_reset' }]);
  });

  it('answers an unknown address exactly as a known one, and sends it nothing', async () => {
    const shop = await approvedMerchant(api);
    const unknown = `nobody-${shop.merchantId.toLowerCase()}@shop.example`;
    const known = await askForLink(shop.email, '192.0.2.72');
    const none = await askForLink(unknown, '192.0.2.72');
    expect(shapeOf(none.text, unknown)).toBe(shapeOf(known.text, shop.email));
    // Decided when the request was recorded: no member, no link.
    expect(await requestsFor(unknown)).toEqual([{ token_hash: null }]);
    await pollUntil(
      async () => mailsTo(shop.email),
      (mails) => mails.length === 1,
    );
    expect(mailsTo(unknown)).toEqual([]);
  });

  it('sends an address three links an hour at most, and pauses a client after ten requests', async () => {
    const shop = await approvedMerchant(api);
    const from = '192.0.2.73';
    for (let n = 0; n < 4; n++) await askForLink(shop.email, from);
    const requests = await requestsFor(shop.email);
    expect(requests).toHaveLength(4);
    expect(requests.filter((request) => request.token_hash !== null)).toHaveLength(3);
    expect(requests[3]).toEqual({ token_hash: null });

    for (let n = 4; n < 10; n++) await askForLink(`someone-${n}@shop.example`, from);
    const paused = await askForLink(`someone-10@shop.example`, from, 429);
    expect(paused.text).toContain('Too many reset links were asked for from your network');
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(3000);
    // Another client is not held up.
    await askForLink(`someone-11@shop.example`, '192.0.2.74');
  });

  it('lets one of many posts on a link at once set the password, and refuses an expired link', async () => {
    const shop = await approvedMerchant(api);
    await askForLink(shop.email, '192.0.2.75');
    const [mail] = await pollUntil(
      async () => mailsTo(shop.email),
      (mails) => mails.length === 1,
    );
    const token = tokenIn(mail.text);
    const passwords = Array.from({ length: 8 }, (_, n) => `${NEW_PASSWORD} number ${n}`);
    const answers = await Promise.all(
      passwords.map((password) =>
        api.inEnglish().post(`/console/reset/${token}`).type('form').send({ password, passwordAgain: password }),
      ),
    );
    const set = answers.flatMap((answer, n) => (answer.status === 303 ? [passwords[n]] : []));
    expect(set).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 404)).toHaveLength(passwords.length - 1);
    await ConsoleClient.login(api, shop.email, set[0], '192.0.2.76');

    await askForLink(shop.email, '192.0.2.75');
    const second = await pollUntil(
      async () => mailsTo(shop.email),
      (mails) => mails.length === 2,
    );
    const expiring = tokenIn(second[1].text);
    await api.sql(`UPDATE password_reset_requests SET expires_at = now() - interval '1 second' WHERE email = $1`, [
      shop.email,
    ]);
    await api.inEnglish().get(`/console/reset/${expiring}`).expect(404);
    await api
      .inEnglish()
      .post(`/console/reset/${expiring}`)
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: NEW_PASSWORD })
      .expect(404);
    await ConsoleClient.login(api, shop.email, set[0], '192.0.2.76');
  });

  it('opens no session for a login whose password was checked before a reset committed', async () => {
    const shop = await approvedMerchant(api);
    const [member] = await api.sql<{ id: string; password_hash: string }>(
      `SELECT id, password_hash FROM merchant_members WHERE email = $1`,
      [shop.email],
    );
    await askForLink(shop.email, '192.0.2.78');
    const [mail] = await pollUntil(
      async () => mailsTo(shop.email),
      (mails) => mails.length === 1,
    );
    await api
      .inEnglish()
      .post(`/console/reset/${tokenIn(mail.text)}`)
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: NEW_PASSWORD })
      .expect(303);
    // What a login that checked the old password during the reset asks for next: refused.
    const made = await api.app.get(ConsoleSessionsRepository).insert({
      id: `stale-${member.id}`,
      merchantId: shop.merchantId,
      memberId: member.id,
      csrfToken: 'csrf',
      ttlHours: 1,
      verified: true,
      passwordHash: member.password_hash,
    });
    expect(made).toBe(false);
    expect(await api.sql(`SELECT 1 FROM console_sessions WHERE member_id = $1`, [member.id])).toEqual([]);
  });

  it('uses up an open link when the password is changed in the console meanwhile', async () => {
    const shop = await approvedMerchant(api);
    await askForLink(shop.email, '192.0.2.77');
    const [mail] = await pollUntil(
      async () => mailsTo(shop.email),
      (mails) => mails.length === 1,
    );
    const owner = await ConsoleClient.login(api, shop.email, CONSOLE_PASSWORD, '192.0.2.77');
    await owner
      .post('/console/security/password', {
        password: CONSOLE_PASSWORD,
        newPassword: NEW_PASSWORD,
        newPasswordAgain: NEW_PASSWORD,
      })
      .set('X-Forwarded-For', '192.0.2.77')
      .expect(303);
    await api
      .inEnglish()
      .get(`/console/reset/${tokenIn(mail.text)}`)
      .expect(404);
  });

  it('sets the password of every login the address has, one per merchant: the link proves the address', async () => {
    const first = await approvedMerchant(api, { name: 'First Of Two' });
    const created = await api.admin().post('/admin/v1/merchants').send({ name: 'Second Of Two' }).expect(201);
    const second = created.body.data.id as string;
    await api
      .admin()
      .post(`/admin/v1/merchants/${second}/approve`)
      .send({ consoleEmail: first.email, consolePassword: 'another password of the same person' })
      .expect(200);
    await askForLink(first.email, '192.0.2.78');
    const [mail] = await pollUntil(
      async () => mailsTo(first.email),
      (mails) => mails.length === 1,
    );
    await api
      .inEnglish()
      .post(`/console/reset/${tokenIn(mail.text)}`)
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: NEW_PASSWORD })
      .expect(303);
    // One password now opens both: the login asks which merchant.
    const answer = await postLogin(api, first.email, NEW_PASSWORD, 200, '192.0.2.78');
    expect(answer.text).toContain('First Of Two');
    expect(answer.text).toContain('Second Of Two');
    const audit = await api.sql<{ merchant_id: string }>(
      `SELECT merchant_id FROM audit_log WHERE actor = $1 AND action = 'member.password_reset'`,
      [first.email],
    );
    expect(audit.map((entry) => entry.merchant_id).sort()).toEqual([first.merchantId, second].sort());
  });

  it('e-mails an invite link only to the invited address; the owner sees that it went, and can send it again', async () => {
    const shop = await approvedMerchant(api, { name: 'Mailing Shop' });
    const owner = await ConsoleClient.login(api, shop.email, CONSOLE_PASSWORD, '192.0.2.79');
    const invitee = `invitee-${shop.merchantId.toLowerCase()}@team.example`;
    const made = await owner.post('/console/team/invites', { email: invitee, role: 'viewer' }).expect(200);
    expect(made.text).toContain('sent to that address');
    // The owner never holds the link: accepting it proves the address.
    expect(made.text).not.toContain('/console/invite/');
    const [first] = await pollUntil(
      async () => mailsTo(invitee),
      (mails) => mails.length === 1,
    );
    const firstLink = /\/console\/invite\/([A-Za-z0-9_-]{43})/.exec(first.text)![0];

    const [invite] = await api.sql<{ id: string }>(`SELECT id FROM member_invites WHERE email = $1`, [invitee]);
    const resent = await owner.post(`/console/team/invites/${invite.id}/resend`).expect(200);
    expect(resent.text).toContain('sent to that address');
    expect(resent.text).not.toContain('/console/invite/');
    const mails = await pollUntil(
      async () => mailsTo(invitee),
      (all) => all.length === 2,
    );
    const secondLink = /\/console\/invite\/([A-Za-z0-9_-]{43})/.exec(mails[1].text)![0];
    // The link sent first stops; the new one works.
    await api.inEnglish().get(firstLink).expect(404);
    await api
      .inEnglish()
      .post(secondLink)
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: NEW_PASSWORD })
      .expect(303);
    await ConsoleClient.login(api, invitee, NEW_PASSWORD, '192.0.2.79');
  });

  it('leaves a login made through a link shown to someone else out of a reset, and it cannot cancel one', async () => {
    const own = await approvedMerchant(api, { name: 'Own Shop' });
    const other = await approvedMerchant(api, { name: 'Squatting Shop' });
    const squatter = await ConsoleClient.login(api, other.email, CONSOLE_PASSWORD, '192.0.2.80');
    await squatter.post('/console/team/invites', { email: own.email, role: 'viewer' }).expect(200);
    const [invite] = await pollUntil(
      async () => mailsTo(own.email),
      (mails) => mails.length === 1,
    );
    const squatPassword = 'the squatter set this one';
    await api
      .inEnglish()
      .post(/\/console\/invite\/[A-Za-z0-9_-]{43}/.exec(invite.text)![0])
      .type('form')
      .send({ password: squatPassword, passwordAgain: squatPassword })
      .expect(303);
    // As an invite accepted while e-mail was off makes it: the owner who saw the link may have used it.
    await api.sql(`UPDATE merchant_members SET address_proven = false WHERE email = $1 AND merchant_id = $2`, [
      own.email,
      other.merchantId,
    ]);

    await askForLink(own.email, '192.0.2.80');
    const [mail] = await pollUntil(
      async () => mailsTo(own.email).filter((one) => one.subject.includes('new password')),
      (mails) => mails.length === 1,
    );
    // The unproven login's password changes; the address's open link still works.
    const squatted = await ConsoleClient.login(api, own.email, squatPassword, '192.0.2.80');
    await squatted
      .post('/console/security/password', {
        password: squatPassword,
        newPassword: `${squatPassword}!`,
        newPasswordAgain: `${squatPassword}!`,
      })
      .set('X-Forwarded-For', '192.0.2.80')
      .expect(303);
    await api
      .inEnglish()
      .post(`/console/reset/${tokenIn(mail.text)}`)
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: NEW_PASSWORD })
      .expect(303);
    // The reset set the proven login only: the new password opens Own Shop alone (no choice), and
    // the squatted login keeps its own password.
    const opened = await ConsoleClient.login(api, own.email, NEW_PASSWORD, '192.0.2.80');
    expect((await opened.get('/console/team').expect(200)).text).toContain('Own Shop');
    const kept = await ConsoleClient.login(api, own.email, `${squatPassword}!`, '192.0.2.80');
    expect((await kept.get('/console/team').expect(200)).text).toContain('Squatting Shop');
  });

  it('sends an invite again under a new link at most 3 times, taking nothing more from the daily limits', async () => {
    const shop = await approvedMerchant(api, { name: 'Resending Shop' });
    const owner = await ConsoleClient.login(api, shop.email, CONSOLE_PASSWORD, '192.0.2.82');
    const invitee = `resent-${shop.merchantId.toLowerCase()}@team.example`;
    await owner.post('/console/team/invites', { email: invitee, role: 'viewer' }).expect(200);
    const [invite] = await api.sql<{ id: string }>(`SELECT id FROM member_invites WHERE email = $1`, [invitee]);
    for (let n = 0; n < 3; n++) await owner.post(`/console/team/invites/${invite.id}/resend`).expect(200);
    const fourth = await owner.post(`/console/team/invites/${invite.id}/resend`).expect(409);
    expect(fourth.text).toContain('was sent again 3 times already');
    // Still one invite, still open: the last link sent works.
    expect(
      await api.sql(`SELECT 1 FROM member_invites WHERE email = $1 AND revoked_at IS NULL`, [invitee]),
    ).toHaveLength(1);
    const mails = await pollUntil(
      async () => mailsTo(invitee),
      (all) => all.length === 4,
    );
    // Two more invites to the address from this team fit in its 3 a day.
    await owner.post('/console/team/invites', { email: invitee, role: 'developer' }).expect(200);
    await owner.post('/console/team/invites', { email: invitee, role: 'owner' }).expect(200);
    await api
      .inEnglish()
      .post(/\/console\/invite\/[A-Za-z0-9_-]{43}/.exec(mails[3].text)![0])
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: NEW_PASSWORD })
      .expect(303);
  });
});
