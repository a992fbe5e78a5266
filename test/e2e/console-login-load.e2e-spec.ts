import { PasswordHashQueue } from '../../apps/payments-api/src/accounts/team/password-hash-queue';
import { INVITE_UNUSABLE } from '../../apps/payments-api/src/accounts/team/team.service';
import {
  approvedMerchant,
  CONSOLE_LANGUAGE,
  CONSOLE_PASSWORD,
  ConsoleClient,
  postLogin,
} from '../support/console-client';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';

/**
 * Issue 25 (5): every console login runs scrypt, so hundreds of wrong logins in flight made a right
 * one wait a minute. Password checks queue in a bounded queue; past it, 429 with Retry-After at
 * once, whatever the email and password (an unknown email is answered exactly like a known one).
 */
describe('console login under load', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    // Failures count per client address: the tests send theirs through a trusted loopback proxy.
    api = await PaymentsApiHarness.start({
      PASSWORD_HASH_CONCURRENCY: '1',
      PASSWORD_HASH_QUEUE: '1',
      TRUST_PROXY: 'loopback',
    });
  });
  afterAll(() => api.stop());

  it('answers 429 with Retry-After to a client that has failed while the queue is full; a clean one waits its turn', async () => {
    const merchant = await approvedMerchant(api);
    const guesser = '198.51.100.1';
    await postLogin(api, merchant.email, 'a wrong guess', 401, guesser);
    // Checks that take as long as the test says: one running, one waiting, so the queue is full.
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const queue = api.app.get(PasswordHashQueue);
    const held = [queue.run('192.0.2.1', () => gate), queue.run('192.0.2.2', () => gate)];

    const answers = [
      await postLogin(api, merchant.email, CONSOLE_PASSWORD, undefined, guesser),
      await postLogin(api, merchant.email, 'wrong password', undefined, guesser),
      await postLogin(api, 'nobody@shop.example', 'wrong password', undefined, guesser),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(429);
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.text).toContain('Too many sign-ins are being checked right now');
    }
    // Nothing in the answer tells a known email from an unknown one.
    const withoutNonce = (text: string) => text.replace(/nonce(="|-)[^"']*/g, '');
    expect(withoutNonce(answers[2].text)).toBe(withoutNonce(answers[1].text));

    // A client that has not failed is not refused: it waits ahead of the queue, and signs in.
    const clean = postLogin(api, merchant.email, CONSOLE_PASSWORD, undefined, '203.0.113.5');
    await pollUntil(
      async () => queue.waiting,
      (waiting) => waiting === 2,
    );
    finish();
    await Promise.all(held);
    expect((await clean).status).toBe(303);
    await postLogin(api, merchant.email, CONSOLE_PASSWORD, 303, guesser);
  }, 60_000);

  /** An owner's invite link for a new developer, as the team page shows it. */
  async function inviteLink(email: string): Promise<string> {
    const merchant = await approvedMerchant(api);
    const owner = await ConsoleClient.login(api, merchant.email);
    const made = await owner.post('/console/team/invites', { email, role: 'developer' }).expect(200);
    return new URL(/<code data-invite-link>([^<]+)<\/code>/.exec(made.text)![1]).pathname;
  }
  const accept = (path: string) =>
    api
      .inEnglish()
      .post(path)
      .set(CONSOLE_LANGUAGE)
      .type('form')
      .send({ password: 'a long enough password 1', passwordAgain: 'a long enough password 1' });

  it("hashes an invite's password in the same queue: 429 while it is full, and the link still works after", async () => {
    const path = await inviteLink('queued@team.example');
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const queue = api.app.get(PasswordHashQueue);
    const held = [queue.run('192.0.2.1', () => gate), queue.run('192.0.2.2', () => gate)];

    const refused = await accept(path);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');

    finish();
    await Promise.all(held);
    await accept(path).expect(303).expect('Location', '/console/login?notice=joined');
    await postLogin(api, 'queued@team.example', 'a long enough password 1', 303);
  }, 60_000);

  it('hashes only the password of the request that claimed the link: the others at once find it taken', async () => {
    const path = await inviteLink('many@team.example');
    const answers = await Promise.all(Array.from({ length: 20 }, () => accept(path)));
    // From one client, a second hash at once would be refused (429): none was asked for.
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, ...Array(19).fill(404)]);
    for (const answer of answers.filter((one) => one.status === 404)) {
      // Taken a moment earlier or found taken: one page, one message.
      expect(answer.text).toContain(INVITE_UNUSABLE);
    }
  }, 60_000);
});
