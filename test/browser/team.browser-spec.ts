import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { expectClean, connectChromium } from '../support/browser';
import { CONSOLE_PASSWORD, approvedMerchant } from '../support/console-client';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { SmtpInbox } from '../support/smtp-inbox';
import { timeFor } from '../support/time-budget';

const PASSWORD = 'a long enough password 1';

// A walk is three members signing in five times (scrypt each time) through eleven pages that axe checks.
jest.setTimeout(timeFor({ browser: 6 }));

/**
 * A merchant's team in a real browser (issue 29): an invite, a second member's login with TOTP, a
 * viewer refused a refund, a key roll whose old key stops after its expiry, and the audit page
 * showing each step; every page axe-clean at 360 and 1280 px.
 */
describe('console team, two-step login, keys and audit log in a real browser (axe-core, WCAG 2.1 AA)', () => {
  let api: PaymentsApiHarness;
  let browser: Browser;
  let inbox: SmtpInbox;

  beforeAll(
    async () => {
      inbox = await SmtpInbox.start();
      [api, browser] = await Promise.all([
        PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0', SMTP_URL: inbox.url }),
        connectChromium(),
      ]);
    },
    timeFor({ app: 1, browser: 1 }),
  );
  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await inbox?.stop();
  });

  const consoleUrl = (path: string) =>
    `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}${path}`;

  async function logIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto(consoleUrl('/console/login'));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  /** The owner's invite through the Team page; returns the link, which only the invited address gets. */
  async function invite(owner: Page, email: string, role: string, width: number): Promise<string> {
    await owner.goto(consoleUrl('/console/team'));
    await owner.getByLabel('Email').fill(email);
    await owner.getByLabel('Role', { exact: true }).selectOption(role);
    await owner.getByRole('button', { name: 'Make invite' }).click();
    await expect(owner.getByRole('status').innerText()).resolves.toContain('sent to that address');
    await expectClean(owner, 'the team page with a new invite', width);
    const [mail] = await pollUntil(
      async () => inbox.received.filter((received) => received.to.includes(email)),
      (mails) => mails.length === 1,
    );
    return /(http:\/\/\S+\/console\/invite\/[A-Za-z0-9_-]{43})/.exec(mail.text)![1];
  }

  /** The invited person, in a browser of their own: sets a password on the invite page. */
  async function join(link: string, width: number): Promise<void> {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    // The link names BASE_URL; this API listens on a port of its own.
    await page.goto(consoleUrl(new URL(link).pathname));
    await expectClean(page, 'the invite page', width);
    await page.getByLabel('Password (12 to 200 characters)').fill(PASSWORD);
    await page.getByLabel('Password again').fill(PASSWORD);
    await Promise.all([
      page.waitForURL('**/console/login**'),
      page.getByRole('button', { name: 'Set password and join' }).click(),
    ]);
    await context.close();
  }

  for (const width of [360, 1280]) {
    it(`resets a forgotten password through the e-mailed link at ${width} px`, async () => {
      const shop = await approvedMerchant(api, { name: `Forgetful Shop ${width}` });
      // The same person runs a second shop with the same address: the reset sets both logins.
      const second = await api
        .admin()
        .post('/admin/v1/merchants')
        .send({ name: `Second Shop ${width}` })
        .expect(201);
      await api
        .admin()
        .post(`/admin/v1/merchants/${second.body.data.id as string}/approve`)
        .send({ consoleEmail: shop.email, consolePassword: 'the second shop password' })
        .expect(200);
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto(consoleUrl('/console/login'));
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await expectClean(page, 'the forgotten-password page', width);
      await page.getByLabel('Email').fill(shop.email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
      await expectClean(page, 'the page after asking for a link', width);

      const [mail] = await pollUntil(
        async () => inbox.received.filter((received) => received.to.includes(shop.email)),
        (mails) => mails.length === 1,
      );
      // The link names BASE_URL; this API listens on a port of its own.
      await page.goto(consoleUrl(/(\/console\/reset\/[A-Za-z0-9_-]{43})\n/.exec(mail.text)![1]));
      await expectClean(page, 'the new-password page', width);
      await page.getByLabel('New password (12 to 200 characters)').fill(PASSWORD);
      await page.getByLabel('New password again').fill(PASSWORD);
      await Promise.all([
        page.waitForURL('**/console/login?notice=password_reset'),
        page.getByRole('button', { name: 'Set the password' }).click(),
      ]);
      await expect(page.getByRole('status').innerText()).resolves.toContain('Your new password is set');
      await expectClean(page, 'the login page after a reset', width);
      await logIn(page, shop.email, PASSWORD);
      await page.getByRole('heading', { name: 'Choose a merchant' }).waitFor();
      await expectClean(page, 'the choice of merchant after the password', width);
      await Promise.all([
        page.waitForURL('**/console/payments'),
        page.getByRole('button', { name: `Second Shop ${width}` }).click(),
      ]);
      await context.close();
    });

    it(`walks a team's account at ${width} px`, async () => {
      const shop = await approvedMerchant(api, { name: `Team Shop ${width}` });
      const ownerContext = await browser.newContext({ viewport: { width, height: 800 } });
      const owner = await ownerContext.newPage();
      await logIn(owner, shop.email, CONSOLE_PASSWORD);
      await owner.waitForURL('**/console/payments');

      // An invite, used once: the developer joins.
      const developerEmail = `dev-${width}@team.example`;
      await join(await invite(owner, developerEmail, 'developer', width), width);

      // The developer turns two-step login on, then signs in with a code.
      const devContext = await browser.newContext({ viewport: { width, height: 800 } });
      const developer = await devContext.newPage();
      await logIn(developer, developerEmail, PASSWORD);
      await developer.waitForURL('**/console/payments');
      await developer.getByRole('link', { name: `Your login (${developerEmail})` }).click();
      await developer.getByLabel('Your password').fill(PASSWORD);
      await developer.getByRole('button', { name: 'Set up two-step login' }).click();
      await expectClean(developer, 'the two-step setup with its QR code', width);
      const secret = await developer.locator('[data-totp-secret]').innerText();
      await developer.getByLabel('6-digit code from the app').fill(await generate({ secret }));
      await developer.getByRole('button', { name: 'Turn on' }).click();
      await expect(developer.locator('[data-recovery-codes] li').count()).resolves.toBe(10);
      await expectClean(developer, 'the recovery codes', width);
      await developer.getByRole('button', { name: 'Log out' }).click();
      await logIn(developer, developerEmail, PASSWORD);
      await developer.waitForURL('**/console/login/two-step');
      await expectClean(developer, 'the two-step login form', width);
      const next = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
      await developer.getByLabel('Code from your authenticator app, or a recovery code').fill(next);
      await Promise.all([
        developer.waitForURL('**/console/payments'),
        developer.getByRole('button', { name: 'Continue' }).click(),
      ]);

      // The developer rolls a key; the old one keeps working until its expiry, then stops.
      await developer.goto(consoleUrl('/console/developers'));
      await developer.getByLabel('Mode of the new key').selectOption('test');
      await developer.getByRole('button', { name: 'Create key' }).click();
      const oldKey = await developer.locator('[data-new-api-key]').innerText();
      await expectClean(developer, 'the developers page with a new key', width);
      await developer.getByRole('button', { name: `Roll key …${oldKey.slice(-4)}` }).click();
      const newKey = await developer.locator('[data-new-api-key]').innerText();
      await expect(developer.locator('#api-keys').innerText()).resolves.toContain('works until');
      await api.as({ key: oldKey }).get('/v1/payments').expect(200);
      await api.sql(`UPDATE api_keys SET expires_at = now() WHERE key_last4 = $1 AND merchant_id = $2`, [
        oldKey.slice(-4),
        shop.merchantId,
      ]);
      await pollUntil(
        async () => (await api.as({ key: oldKey }).get('/v1/payments')).status,
        (s) => s === 401,
      );
      await api.as({ key: newKey }).get('/v1/payments').expect(200);

      // A viewer sees a payment but is refused its refund, and nothing changes.
      const viewerEmail = `viewer-${width}@team.example`;
      await join(await invite(owner, viewerEmail, 'viewer', width), width);
      const created = await api
        .as({ key: newKey })
        .post('/v1/payments')
        .set('Idempotency-Key', randomUUID())
        .send(paymentBody({ amount: 32000 }))
        .expect(201);
      await api.as({ key: newKey }).post(`/v1/test-helpers/payments/${created.body.data.id}/complete`).expect(200);
      const viewerContext = await browser.newContext({ viewport: { width, height: 800 } });
      const viewer = await viewerContext.newPage();
      await logIn(viewer, viewerEmail, PASSWORD);
      await viewer.waitForURL('**/console/payments');
      await viewer.goto(consoleUrl(`/console/payments/${created.body.data.id}?mode=test`));
      // No refund form for a role that cannot refund (the server refuses its POST all the same).
      await expect(viewer.getByRole('heading', { name: 'Refunds' }).isVisible()).resolves.toBe(true);
      await expect(viewer.getByRole('button', { name: 'Review refund…' }).count()).resolves.toBe(0);
      await expect(viewer.getByRole('button', { name: 'Redeliver' }).count()).resolves.toBe(0);
      await expectClean(viewer, "a viewer's payment page", width);
      expect(await api.sql(`SELECT 1 FROM refunds WHERE payment_id = $1`, [created.body.data.id])).toEqual([]);

      // The audit page shows each step, newest first.
      await owner.goto(consoleUrl('/console/audit'));
      const entries = await owner.locator('tbody').innerText();
      for (const action of [
        'member.invited',
        'member.joined',
        'member.two_step_enabled',
        'api_key.created',
        'api_key.rolled',
      ]) {
        expect(entries).toContain(action);
      }
      expect(entries.indexOf('api_key.rolled')).toBeLessThan(entries.indexOf('api_key.created'));
      await expectClean(owner, 'the audit page', width);
      await owner.getByLabel('Action').selectOption('api_key.rolled');
      await owner.getByRole('button', { name: 'Filter' }).click();
      await expect(owner.locator('tbody tr').count()).resolves.toBe(1);
      await expectClean(owner, 'the audit page filtered', width);

      // Removing a member takes a confirmation step; Cancel leaves the team as it was.
      await owner.goto(consoleUrl('/console/team'));
      await owner.getByRole('link', { name: `Remove ${viewerEmail}` }).click();
      await expect(
        owner.getByRole('heading', { name: `Remove ${viewerEmail} from Team Shop ${width}?` }).isVisible(),
      ).resolves.toBe(true);
      await expectClean(owner, 'the removal step', width);
      await owner.getByRole('link', { name: 'Cancel' }).click();
      await owner.waitForURL('**/console/team');
      const members = owner.getByRole('region', { name: 'Members' });
      await expect(members.innerText()).resolves.toContain(viewerEmail);
      await Promise.all([ownerContext.close(), devContext.close(), viewerContext.close()]);
    });
  }
});
