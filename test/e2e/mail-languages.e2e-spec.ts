import { MembersRepository } from '../../apps/payments-api/src/accounts/team/members.repository';
import { approvedMerchant, CONSOLE_PASSWORD, ConsoleClient, csrfFieldOf, setCookie } from '../support/console-client';
import { englishWords } from '../support/korean-text';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { SmtpInbox, type ReceivedEmail } from '../support/smtp-inbox';

const NEW_PASSWORD = 'a brand new console password';

/**
 * Every e-mail to a merchant's staff is in the recipient's language: a member's own choice, else
 * Korean. A reset asked for on the login page follows the browser that asked when the login has no
 * choice; an invite goes in the language the inviting member reads the console in. Every request
 * here is made without Accept-Language (a Korean browser) unless it says otherwise, from addresses of
 * this file's own (reset requests count per client; X-Forwarded-For through a trusted loopback proxy).
 */
describe('e-mails to the staff in their language', () => {
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

  /** The "Forgot your password?" form, filled in by a browser that sends no Accept-Language. */
  async function askForLink(email: string, from: string) {
    const page = await api.http().get('/console/login/forgot').expect(200);
    const cookie = (setCookie(page, 'payhook_console_login') ?? '').split(';')[0];
    await api
      .http()
      .post('/console/login/forgot')
      .set('Cookie', cookie)
      .set('X-Forwarded-For', from)
      .type('form')
      .send({ csrf: csrfFieldOf(page.text), email })
      .expect(200);
  }

  const mailsTo = (email: string, count: number) =>
    pollUntil(
      async () => inbox.to(email),
      (mails) => mails.length === count,
    );
  const linkIn = (mail: ReceivedEmail, path: string) =>
    new RegExp(`${path}/[A-Za-z0-9_-]{43}\\n`).exec(mail.text)![0].trim();
  const memberIdOf = async (email: string) =>
    (await api.sql<{ id: string }>(`SELECT id FROM merchant_members WHERE email = $1`, [email]))[0].id;

  /** A Korean e-mail: no placeholder or key left, no English word but the data it names. */
  function expectKorean(mail: ReceivedEmail, data: string[] = []) {
    const all = `${mail.subject}\n${mail.text}`;
    expect(all).not.toMatch(/[{}]/);
    expect(englishWords(all, data)).toEqual([]);
  }

  it('sends a member who chose English an English reset link, even asked for from a Korean browser', async () => {
    const shop = await approvedMerchant(api, { name: 'English Shop' });
    await api.app.get(MembersRepository).setLocale(await memberIdOf(shop.email), 'en');
    await askForLink(shop.email, '192.0.2.150');
    const [mail] = await mailsTo(shop.email, 1);
    expect(mail.subject).toBe('Set a new password for your payhook console login');
    expect(mail.text).toContain('the link works once, for 60 minutes');
  });

  it('sends a member without a choice a Korean reset link, and the link works', async () => {
    const shop = await approvedMerchant(api, { name: 'Korean Shop' });
    await askForLink(shop.email, '192.0.2.151');
    const [mail] = await mailsTo(shop.email, 1);
    expect(mail.subject).toBe('payhook 콘솔 로그인 비밀번호를 새로 설정하세요');
    expect(mail.text).toContain('60분 동안 한 번만 쓸 수 있습니다');
    expectKorean(mail);
    await api
      .http()
      .post(linkIn(mail, '/console/reset'))
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: NEW_PASSWORD })
      .expect(303);
    await ConsoleClient.login(api, shop.email, NEW_PASSWORD, '192.0.2.151');
  });

  it("sends an invite in the inviting member's console language: Korean from a Korean console, English again from an English one", async () => {
    const shop = await approvedMerchant(api, { name: 'Inviting Shop' });
    const owner = await ConsoleClient.login(api, shop.email, CONSOLE_PASSWORD, '192.0.2.152');
    const invitee = `invitee-${shop.merchantId.toLowerCase()}@team.example`;
    // As a Korean browser posts the team page's form: the owner's session, no Accept-Language.
    await api
      .http()
      .post('/console/team/invites')
      .set('Cookie', owner.cookie)
      .type('form')
      .send({ csrf: owner.csrf, email: invitee, role: 'developer' })
      .expect(200);
    const [korean] = await mailsTo(invitee, 1);
    expect(korean.subject).toBe('payhook 콘솔에 초대되었습니다');
    expect(korean.text).toContain('개발자 역할로 초대되었습니다');
    expectKorean(korean);

    // Sent again by the owner reading the console in English (ConsoleClient's browser): English.
    const [invite] = await api.sql<{ id: string }>(`SELECT id FROM member_invites WHERE email = $1`, [invitee]);
    await owner.post(`/console/team/invites/${invite.id}/resend`).expect(200);
    const [, english] = await mailsTo(invitee, 2);
    expect(english.subject).toBe('You are invited to a payhook console');
    expect(english.text).toContain('You were invited as developer');
    await api
      .http()
      .post(linkIn(english, '/console/invite'))
      .type('form')
      .send({ password: NEW_PASSWORD, passwordAgain: NEW_PASSWORD })
      .expect(303);
  });
});
