import type { INestApplication } from '@nestjs/common';
import { Writable } from 'node:stream';
import { approvedMerchant, ConsoleClient } from '../support/console-client';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { SmtpInbox } from '../support/smtp-inbox';
import { timeFor } from '../support/time-budget';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';
import { completedPayment } from '../support/webhook-scenario';

/** Its own database, two APIs (two senders competing for the notices) and a dispatcher. */
const START_MS = timeFor({ database: 1, app: 3 });
/** Long enough for an endpoint to fail past WEBHOOK_DISABLE_AFTER and its e-mails to arrive, on a busy host. */
const NOTICE_MS = 60_000;

jest.setTimeout(120_000);

/** The lines an app writes, as its log pipeline gets them. */
class CapturedLines extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

/**
 * An endpoint's owners get one e-mail when its automatic attempts have failed
 * for WEBHOOK_NOTICE_AFTER, one when it is disabled and one when it recovers, through a real SMTP
 * server; the console shows a banner meanwhile. Notices after 1 s, disabled after 15 s: an attempt
 * falls between the two even when a busy host stalls the dispatcher for seconds.
 */
describe('notices to the owners of an endpoint in trouble', () => {
  const log = new CapturedLines();
  let inbox: SmtpInbox;
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let secondApi: PaymentsApiHarness;
  let dispatcher: INestApplication;
  let receiver: WebhookReceiver;
  let failing = true;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    services = await isolatedServices('notices');
    const env = {
      ...services.env,
      SMTP_URL: inbox.url,
      SMTP_FROM: 'payhook <notices@payhook.test>',
      WEBHOOK_NOTICE_AFTER: '1s',
      WEBHOOK_DISABLE_AFTER: '15s',
      WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 100 }, () => '300ms').join(','),
    };
    // The first app in a process makes the one pino logger: this one's lines are the ones captured.
    api = await PaymentsApiHarness.start({ ...env, LOG_FORMAT: 'json' }, undefined, log);
    secondApi = await PaymentsApiHarness.start(env);
    dispatcher = await startDispatcher(env);
    receiver = await WebhookReceiver.start();
    receiver.respondWith(() => (failing ? { status: 500, body: 'down' } : { status: 200, body: 'ok' }));
  }, START_MS);

  afterAll(async () => {
    await dispatcher?.close();
    await secondApi?.stop();
    await api?.stop();
    await receiver?.stop();
    await inbox?.stop();
    await services?.drop();
  });

  const health = async (merchant: { key: string }) =>
    (await api.as(merchant).get('/v1/webhook-endpoint').expect(200)).body.data;
  const notices = (merchantId: string) =>
    api.sql<{ kind: string; sent: boolean }>(
      `SELECT kind, sent_at IS NOT NULL AS sent FROM webhook_notices WHERE merchant_id = $1 ORDER BY id`,
      [merchantId],
    );
  /** An owner who reads payhook in English (one without a choice is e-mailed in Korean). */
  const readsEnglish = (owner: { email: string }) =>
    api.sql(`UPDATE merchant_members SET locale = 'en' WHERE email = $1`, [owner.email]);
  const banner = async (consoleUser: ConsoleClient, path: string) => {
    const page = await consoleUser.get(path).expect(200);
    return /<div class="warning webhook-banner"[^]*?<\/div>/.exec(page.text)?.[0] ?? null;
  };

  it('e-mails the owner once when failing and once when disabled, nobody else; the banner stays until re-enabled', async () => {
    failing = true;
    const owner = await approvedMerchant(api, { name: 'Failing Shop' });
    await readsEnglish(owner);
    const bystander = await approvedMerchant(api, { name: 'Healthy Shop' });
    await api.as(owner).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    const healthyReceiver = await WebhookReceiver.start();
    try {
      await api.as(bystander).put('/v1/webhook-endpoint').send({ url: healthyReceiver.url }).expect(200);
      await completedPayment(api, bystander);
      await completedPayment(api, owner);
      await completedPayment(api, owner);

      await pollUntil(
        () => health(owner),
        (data) => data.status === 'disabled',
        { timeoutMs: NOTICE_MS },
      );
      const [endpoint] = await api.sql<{ id: string }>(`SELECT id FROM webhook_endpoints WHERE merchant_id = $1`, [
        owner.merchantId,
      ]);
      // Both notices are written and sent (by either API: they claim with SKIP LOCKED), each once.
      await pollUntil(
        () => notices(owner.merchantId),
        (rows) => rows.length === 2 && rows.every((row) => row.sent),
        { timeoutMs: NOTICE_MS },
      );
      expect((await notices(owner.merchantId)).map((row) => row.kind)).toEqual(['failing', 'disabled']);

      const mail = inbox.to(owner.email);
      const host = new URL(receiver.url).host;
      expect(mail.map((email) => email.subject)).toEqual([
        `payhook: webhooks to ${host} have failed for 1 second`,
        `payhook: a webhook endpoint at ${host} is disabled`,
      ]);
      for (const email of mail) {
        expect(email.to).toEqual([owner.email]);
        expect(email.from).toBe('notices@payhook.test');
        expect(email.text).toContain('Failing Shop');
        expect(email.text).toContain(`Endpoint: ${endpoint.id} at ${host}, test mode`);
        expect(email.text).toContain('Last error: HTTP 500');
      }
      expect(mail[1].text).toContain('/console/developers?mode=test');
      expect(inbox.to(bystander.email)).toEqual([]);
      expect(inbox.received.filter((email) => !email.to.every((to) => to === owner.email))).toEqual([]);

      // Every console page says so, to this merchant only, until the endpoint is enabled again.
      const ownerConsole = await ConsoleClient.login(api, owner.email);
      for (const path of ['/console/payments', '/console/settlements', '/console/developers', '/console/settings']) {
        const shown = await banner(ownerConsole, path);
        expect(shown).toContain(receiver.url);
        expect(shown).toContain('is disabled');
      }
      expect(await banner(await ConsoleClient.login(api, bystander.email), '/console/payments')).toBeNull();

      failing = false;
      await api.as(owner).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
      expect(await banner(ownerConsole, '/console/payments')).toBeNull();
      // Re-enabling ends the episode without an e-mail: the person who did it knows.
      const marker = await completedPayment(api, owner);
      await pollUntil(
        () => api.as(owner).get(`/v1/events/${marker.eventId}`).expect(200),
        (response) => response.body.data.deliveryStatus === 'succeeded',
      );
      expect(await notices(owner.merchantId)).toHaveLength(2);
      expect(inbox.to(owner.email)).toHaveLength(2);
    } finally {
      await healthyReceiver.stop();
    }
  });

  it('shows the banner while an endpoint fails, then e-mails the owner once when it answers again', async () => {
    failing = true;
    const owner = await approvedMerchant(api, { name: 'Flaky Shop', timeZone: 'Asia/Seoul' });
    await readsEnglish(owner);
    await api.as(owner).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    const ownerConsole = await ConsoleClient.login(api, owner.email);
    expect(await banner(ownerConsole, '/console/payments')).toBeNull();
    await completedPayment(api, owner);

    // As soon as the failing notice is written (the e-mail may still be on its way): past WEBHOOK_NOTICE_AFTER.
    await pollUntil(
      () => notices(owner.merchantId),
      (rows) => rows.length === 1,
      { timeoutMs: NOTICE_MS },
    );
    const shown = await banner(ownerConsole, '/console/payments');
    expect(shown).toContain('has failed every automatic delivery since');
    expect(shown).toContain('KST');

    failing = false;
    await pollUntil(
      () => health(owner),
      (data) => data.failingSince === null,
      { timeoutMs: NOTICE_MS },
    );
    await pollUntil(
      () => notices(owner.merchantId),
      (rows) => rows.length === 2 && rows.every((row) => row.sent),
      { timeoutMs: NOTICE_MS },
    );
    expect((await notices(owner.merchantId)).map((row) => row.kind)).toEqual(['failing', 'recovered']);
    const host = new URL(receiver.url).host;
    expect(inbox.to(owner.email).map((email) => email.subject)).toEqual([
      `payhook: webhooks to ${host} have failed for 1 second`,
      `payhook: webhooks to ${host} are delivered again`,
    ]);
    expect(await banner(ownerConsole, '/console/payments')).toBeNull();
    expect((await health(owner)).status).toBe('enabled');
  });

  it('says at start where e-mail goes, naming the SMTP host and never its password', () => {
    // Both APIs write to the process's one pino logger: one line each.
    const said = log.lines.filter((line) => line.includes('e-mail is on'));
    expect(said.length).toBeGreaterThan(0);
    for (const line of said) expect(line).toContain(`sent through the SMTP server at 127.0.0.1:${inbox.port}"`);
    expect(log.lines.filter((line) => line.includes(SmtpInbox.PASSWORD))).toEqual([]);
  });

  it('e-mails an invite to the invited address only, and never writes its link to the log', async () => {
    const shop = await approvedMerchant(api, { name: 'Inviting Shop' });
    const owner = await ConsoleClient.login(api, shop.email);
    const made = await owner
      .post('/console/team/invites', { email: 'new.dev@team.example', role: 'developer' })
      .expect(200);
    // The owner is told it went, and never sees the link: opening it proves the address.
    expect(made.text).toContain('sent to that address');
    expect(made.text).not.toContain('/console/invite/');
    const [mail] = await pollUntil(
      async () => inbox.to('new.dev@team.example'),
      (mails) => mails.length > 0,
    );
    const token = /\/console\/invite\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
    expect(log.lines.filter((line) => line.includes(token))).toEqual([]);
    expect(inbox.received.filter((email) => email.text.includes(token)).flatMap((email) => email.to)).toEqual([
      'new.dev@team.example',
    ]);
  });
});
