import { PasswordCheckQueue } from '../../apps/payments-api/src/console/password-check-queue';
import { approvedMerchant, CONSOLE_PASSWORD, postLogin } from '../support/console-client';
import { PaymentsApiHarness } from '../support/payments-api.harness';

/**
 * Issue 25 (5): every console login runs scrypt, so hundreds of wrong logins in flight made a right
 * one wait a minute. Password checks queue in a bounded queue; past it, 429 with Retry-After at
 * once, whatever the email and password (an unknown email is answered exactly like a known one).
 */
describe('console login under load', () => {
  let api: PaymentsApiHarness;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start({ PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '1' });
  });
  afterAll(() => api.stop());

  it('answers 429 with Retry-After while the password check queue is full, and signs in once it is not', async () => {
    const merchant = await approvedMerchant(api);
    // Checks that take as long as the test says: one running, one waiting, so the queue is full.
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const queue = api.app.get(PasswordCheckQueue);
    const held = [queue.run('192.0.2.1', () => gate), queue.run('192.0.2.2', () => gate)];

    const answers = [
      await postLogin(api, merchant.email, CONSOLE_PASSWORD),
      await postLogin(api, merchant.email, 'wrong password'),
      await postLogin(api, 'nobody@shop.example', 'wrong password'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(429);
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.text).toContain('Too many sign-ins are being checked right now');
    }
    // Nothing in the answer tells a known email from an unknown one.
    const withoutNonce = (text: string) => text.replace(/nonce(="|-)[^"']*/g, '');
    expect(withoutNonce(answers[2].text)).toBe(withoutNonce(answers[1].text));

    finish();
    await Promise.all(held);
    await postLogin(api, merchant.email, CONSOLE_PASSWORD, 303);
  }, 60_000);
});
