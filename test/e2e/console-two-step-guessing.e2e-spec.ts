import { generate } from 'otplib';
import {
  approvedMerchant,
  CONSOLE_PASSWORD,
  ConsoleClient,
  postLogin,
  secondStepOf,
  setCookie,
} from '../support/console-client';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { SmtpInbox } from '../support/smtp-inbox';

/**
 * Someone who has a member's password must not be able to guess the two-step code: codes sent
 * together on one session are not all checked, and wrong codes count per member from any address.
 * Failures are counted per client address too (in the run's database, across spec files), so every
 * request here comes from addresses of this file's own (X-Forwarded-For through a trusted loopback proxy).
 */
describe('two-step codes cannot be guessed', () => {
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

  /** A merchant's owner with two-step login turned on; returns the email and the TOTP secret. */
  async function ownerWithTwoStep(): Promise<{ email: string; secret: string; memberId: string }> {
    const shop = await approvedMerchant(api);
    // Its own address too: the run's database counts failures per address for every spec file, and
    // other files fail sign-ins from this machine's own.
    const owner = await ConsoleClient.login(api, shop.email, CONSOLE_PASSWORD, '192.0.2.99');
    const setup = await owner.post('/console/security/two-step', { password: CONSOLE_PASSWORD }).expect(200);
    const secret = /<code data-totp-secret>([A-Z2-7]+)<\/code>/.exec(setup.text)![1];
    await owner.post('/console/security/two-step/confirm', { code: await generate({ secret }) }).expect(200);
    const [{ id }] = await api.sql<{ id: string }>(`SELECT id FROM merchant_members WHERE email = $1`, [shop.email]);
    return { email: shop.email, secret, memberId: id };
  }

  /** The password step from `from`: a session owing its code, and a way to send codes on it. */
  async function passwordStep(email: string, from: string) {
    return secondStepOf(api, await postLogin(api, email, CONSOLE_PASSWORD, 303, from), from);
  }

  const checkedCodesOf = async (memberId: string) =>
    Number(
      (
        await api.sql<{ n: string }>(
          `SELECT count(*) AS n FROM auth_failures WHERE scope = 'second-step' AND client = $1`,
          [memberId],
        )
      )[0].n,
    );

  it('checks at most five codes of one session, however many are sent at once', async () => {
    const { email, memberId } = await ownerWithTwoStep();
    const session = await passwordStep(email, '198.51.100.10');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => session.send(String(n).padStart(6, '0'))));

    const wrong = answers.filter((answer) => answer.text.includes('That code is wrong or was used already'));
    const ended = answers.filter((answer) => answer.text.includes('Too many wrong codes: sign in again'));
    const backToPassword = answers.filter(
      (answer) => answer.status === 303 && answer.headers.location === '/console/login',
    );
    const paused = answers.filter((answer) => answer.status === 429);
    // Four wrong codes; the fifth ends the session. Every other code found it ended or gone (back to
    // the password), or the member's codes paused by the claims of those sent with it: none checked.
    expect(wrong).toHaveLength(4);
    expect(ended.length).toBeGreaterThanOrEqual(1);
    expect(ended.length + backToPassword.length + paused.length).toBe(16);
    expect(await checkedCodesOf(memberId)).toBe(5);
  });

  it("pauses a member's codes after ten wrong ones from any addresses, e-mails the member, and keeps the password working", async () => {
    const { email, secret, memberId } = await ownerWithTwoStep();
    // A member who reads payhook in English (one without a choice is e-mailed in Korean).
    await api.sql(`UPDATE merchant_members SET locale = 'en' WHERE id = $1`, [memberId]);
    // Two sessions from two networks, five wrong codes each: neither address reaches its own limit.
    for (const from of ['203.0.113.1', '203.0.113.2']) {
      const session = await passwordStep(email, from);
      for (let n = 0; n < 5; n++) await session.send('000000');
    }
    const warned = await pollUntil(
      async () => inbox.to(email),
      (emails) => emails.length === 1,
    );
    expect(warned[0].subject).toBe('Wrong two-step codes for your payhook console login');
    expect(warned[0].text).toContain('with your password, then gave 10 wrong two-step codes');

    // From a third network, with the password: even the right code waits now, and says why.
    const third = await passwordStep(email, '203.0.113.3');
    const paused = await third.send(await generate({ secret })).expect(429);
    expect(paused.text).toContain('Too many wrong codes for this login.');
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(55 * 60);
    expect(inbox.to(email)).toHaveLength(1);
  });

  it("opens the console under a new token when the code is right: the password step's token is dead", async () => {
    const { email, secret } = await ownerWithTwoStep();
    const session = await passwordStep(email, '192.0.2.7');
    // The code after the one that turned two-step login on (that one is spent).
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const signedIn = await session.send(code).expect(303).expect('Location', '/console/payments');
    const fresh = setCookie(signedIn, 'payhook_console')!.split(';')[0];
    expect(fresh).not.toBe(session.cookie);
    await api.http().get('/console/payments').set('Cookie', fresh).expect(200);
    await api
      .http()
      .get('/console/payments')
      .set('Cookie', session.cookie)
      .expect(303)
      .expect('Location', '/console/login');
  });
});
