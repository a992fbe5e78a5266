import { Webhook } from 'standardwebhooks';
import { PayhookClient, verifyWebhook } from '../../libs/sdk/src';
import { expectApiError } from '../support/api-expectations';
import { CliProcess } from '../support/cli-process';
import type { TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { TcpProxy } from '../support/tcp-proxy';
import { WebhookReceiver, standardWebhookHeaders, type ReceivedWebhook } from '../support/webhook-receiver';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';

const EVENT_TYPES = [
  'payment.completed',
  'payment.failed',
  'payment.canceled',
  'payment.expired',
  'refund.succeeded',
  'refund.failed',
  'cash_receipt.issued',
  'cash_receipt.failed',
  'escrow.confirmed',
  'escrow.rejected',
];

/** The first build of the CLI (bin/payhook.js builds it when missing) on a busy two-core host. */
const BUILD_TIMEOUT_MS = 240_000;

const eventOf = (delivery: ReceivedWebhook) =>
  JSON.parse(delivery.rawBody.toString('utf8')) as { id: string; type: string; data: Record<string, unknown> };

/** Verified as a merchant's handler would: the SDK on both header sets, and the standardwebhooks library. */
function expectVerified(delivery: ReceivedWebhook, secret: string): void {
  const signature = delivery.headers['service-signature'] as string;
  expect(verifyWebhook(delivery.rawBody, signature, secret).id).toBe(delivery.headers['service-event-id']);
  expect(verifyWebhook(delivery.rawBody, delivery.headers, secret).id).toBe(delivery.headers['webhook-id']);
  expect(() =>
    new Webhook(secret).verify(delivery.rawBody.toString('utf8'), standardWebhookHeaders(delivery)),
  ).not.toThrow();
}

/**
 * "Developer CLI" (issue 30): `payhook listen` forwards the test mode's events, signed with
 * the secret it prints, over one outgoing connection; `payhook trigger` makes every event type; the
 * thin commands read and resend. Every command runs as a real child process of the `payhook` bin.
 */
describe('the payhook CLI', () => {
  let stack: WebhookStack;
  let merchant: TestMerchant;
  let handler: WebhookReceiver;
  const running: CliProcess[] = [];

  beforeAll(async () => {
    stack = await startWebhookStack('cli');
    // Builds the CLI once, before any test times its commands.
    const help = await CliProcess.run(['--help'], {});
    expect(help.code).toBe(0);
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await stack.stop();
  });
  beforeEach(async () => {
    merchant = await stack.api.merchantWithKey('test');
    handler = await WebhookReceiver.start();
  });
  afterEach(async () => {
    for (const cli of running.splice(0)) cli.kill();
    await handler.stop();
  });

  const env = (apiUrl = stack.api.baseUrl) => ({ PAYHOOK_API_KEY: merchant.key, PAYHOOK_API_URL: apiUrl });
  const listen = (args: string[], apiUrl?: string) => {
    const cli = new CliProcess(['listen', '--forward-to', handler.url, ...args], env(apiUrl));
    running.push(cli);
    return cli;
  };
  const started = async (cli: CliProcess) => {
    const [, secret] = await cli.line(/signing secret for this session is (whsec_[0-9A-Za-z]{32})/);
    const [, sessionId] = await cli.line(/Session (lsn_[0-9A-Za-z]{24})/);
    return { secret, sessionId };
  };
  const receivedIds = () => new Set(handler.received.map((delivery) => eventOf(delivery).id));

  it('forwards one event of every type, verified with the printed secret, and the endpoints still get theirs', async () => {
    await stack.api
      .as(merchant)
      .put('/v1/webhook-endpoint')
      .send({ url: stack.receiver.url, enabledEvents: EVENT_TYPES })
      .expect(200);
    const cli = listen([]);
    const { secret, sessionId } = await started(cli);

    const printedReceipts = new Map<string, string>();
    const printedEscrows = new Map<string, string>();
    for (const type of EVENT_TYPES) {
      const triggered = await CliProcess.run(['trigger', type], env());
      expect({ code: triggered.code, stderr: triggered.stderr }).toEqual({ code: 0, stderr: [] });
      expect(triggered.stdout).toContainEqual(expect.stringMatching(/^payment pay_[0-9A-Za-z]{24} created/));
      if (type.startsWith('refund.')) {
        expect(triggered.stdout).toContainEqual(
          expect.stringMatching(/^refund rfd_[0-9A-Za-z]{24} (succeeded|failed)$/),
        );
      }
      // A test receipt is issued (a 9-digit number) or fails (the failing test number) as the payment completes.
      if (type === 'cash_receipt.issued') {
        expect(triggered.stdout).toContainEqual(
          expect.stringMatching(/^cash receipt crc_[0-9A-Za-z]{24} issued \(issue number \d{9}\)$/),
        );
      }
      if (type === 'cash_receipt.failed') {
        expect(triggered.stdout).toContainEqual(
          expect.stringMatching(/^cash receipt crc_[0-9A-Za-z]{24} failed \(identity_rejected\)$/),
        );
      }
      // An escrow payment is shipped, then confirmed or rejected as its buyer would.
      if (type.startsWith('escrow.')) {
        expect(triggered.stdout).toContainEqual(
          expect.stringMatching(/^escrow of pay_[0-9A-Za-z]{24} shipped \(payhook CLI cli-[0-9a-f-]{36}\)$/),
        );
        const closed = type === 'escrow.confirmed' ? 'confirmed' : 'rejected \\(payhook trigger escrow\\.rejected\\)';
        expect(triggered.stdout).toContainEqual(
          expect.stringMatching(new RegExp(`^escrow of pay_[0-9A-Za-z]{24} ${closed}$`)),
        );
      }
      const receiptId = /^cash receipt (crc_\w+)/m.exec(triggered.stdout.join('\n'))?.[1];
      if (receiptId) printedReceipts.set(type, receiptId);
      const escrowPaymentId = /^escrow of (pay_\w+)/m.exec(triggered.stdout.join('\n'))?.[1];
      if (escrowPaymentId) printedEscrows.set(type, escrowPaymentId);
    }

    const deliveries = await pollUntil(
      async () => handler.received,
      (received) => new Set(received.map((delivery) => eventOf(delivery).type)).size === EVENT_TYPES.length,
    );
    for (const delivery of deliveries) {
      expectVerified(delivery, secret);
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['user-agent']).toMatch(/^payhook-webhooks\//);
    }
    // The receipt events carry the receipt the trigger printed, the buyer's number masked, never whole.
    const receiptOf = (type: string) => {
      const delivery = deliveries.find((one) => eventOf(one).type === type)!;
      expect(delivery.rawBody.toString('utf8')).not.toMatch(/01012345678|01000000000/);
      return verifyWebhook(delivery.rawBody, delivery.headers, secret).data;
    };
    expect(receiptOf('cash_receipt.issued')).toMatchObject({
      id: printedReceipts.get('cash_receipt.issued'),
      transactionType: 'issue',
      identityNumber: '*******5678',
      status: 'issued',
      issueNumber: expect.stringMatching(/^\d{9}$/),
    });
    expect(receiptOf('cash_receipt.failed')).toMatchObject({
      id: printedReceipts.get('cash_receipt.failed'),
      identityNumber: '*******0000',
      status: 'failed',
      failureReason: 'identity_rejected',
    });
    // The escrow events close the escrow of the payment the trigger printed.
    const escrowOf = (type: string) => {
      const delivery = deliveries.find((one) => eventOf(one).type === type)!;
      return verifyWebhook(delivery.rawBody, delivery.headers, secret).data;
    };
    expect(escrowOf('escrow.confirmed')).toMatchObject({
      paymentId: printedEscrows.get('escrow.confirmed'),
      status: 'confirmed',
      autoConfirmed: false,
      rejectReason: null,
    });
    expect(escrowOf('escrow.rejected')).toMatchObject({
      paymentId: printedEscrows.get('escrow.rejected'),
      status: 'rejected',
      rejectReason: 'payhook trigger escrow.rejected',
      autoConfirmed: null,
    });
    // One line per event, with its id and the local answer.
    for (const delivery of deliveries) {
      const { id, type } = eventOf(delivery);
      await cli.line(new RegExp(`${type.replace('.', '\\.')}\\s+${id}\\s+→ 200`));
    }

    // The same bytes went to the mode's endpoint, signed with its own secret.
    const [endpoint] = (await stack.api.as(merchant).get('/v1/webhook-endpoints').expect(200)).body.data;
    for (const delivery of deliveries) {
      const { id } = eventOf(delivery);
      const [atEndpoint] = await pollUntil(
        async () => stack.receiver.forEvent(id),
        (found) => found.length > 0,
      );
      expect(atEndpoint.rawBody.equals(delivery.rawBody)).toBe(true);
      expectVerified(atEndpoint, endpoint.signingSecret);
      expect(() => verifyWebhook(delivery.rawBody, delivery.headers, endpoint.signingSecret)).toThrow();
      // The event shows the session's attempt beside the endpoint's.
      const event = await pollUntil(
        async () => (await stack.api.as(merchant).get(`/v1/events/${id}`).expect(200)).body.data,
        (shown) => shown.attempts.some((attempt: { endpointId: string }) => attempt.endpointId === sessionId),
      );
      expect(event.attempts).toContainEqual(
        expect.objectContaining({ endpointId: sessionId, responseStatus: 200, responseBody: 'ok', error: null }),
      );
      expect(event.deliveries.map((one: { endpointId: string }) => one.endpointId)).toEqual([endpoint.id]);
    }

    await expect(cli.interrupt()).resolves.toBe(0);
    const session = (await stack.api.as(merchant).get(`/v1/listen-sessions/${sessionId}`).expect(200)).body.data;
    expect(session).toEqual(expect.objectContaining({ id: sessionId, status: 'ended', endedAt: expect.any(String) }));
  }, 180_000);

  it('reads payments and resends an event as thin API calls', async () => {
    const triggered = await CliProcess.run(['trigger', 'payment.completed'], env());
    expect(triggered.code).toBe(0);
    const paymentId = /payment (pay_\w+) created/.exec(triggered.stdout.join('\n'))![1];

    const got = await CliProcess.run(['payments', 'get', paymentId], env());
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout.join('\n')).data).toEqual(
      expect.objectContaining({ id: paymentId, status: 'completed' }),
    );
    // The VAT split and the merchant's metadata come with the rest of the payment.
    const split = await stack.api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', `cli-split-${Date.now()}`)
      .send({
        orderId: `cli-split-${Date.now()}`,
        customerId: 'customer-1',
        amount: 10_000,
        currency: 'KRW',
        returnUrl: 'https://shop.example/return',
        taxFreeAmount: 3_000,
        metadata: { cartId: 'cart-5521', channel: '모바일' },
      })
      .expect(201);
    const gotSplit = await CliProcess.run(['payments', 'get', split.body.data.id as string], env());
    expect(gotSplit.code).toBe(0);
    expect(JSON.parse(gotSplit.stdout.join('\n')).data).toEqual(
      expect.objectContaining({
        taxFreeAmount: 3_000,
        vat: 636,
        suppliedAmount: 6_364,
        metadata: { cartId: 'cart-5521', channel: '모바일' },
        escrow: null,
      }),
    );
    await stack.api
      .as(merchant)
      .post(`/v1/payments/${split.body.data.id as string}/cancel`)
      .expect(200);
    const listed = await CliProcess.run(['payments', 'list', '--status', 'completed', '--limit', '1'], env());
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout.join('\n'))).toEqual(
      expect.objectContaining({ data: [expect.objectContaining({ id: paymentId })], hasMore: false }),
    );
    // An escrow payment shows its escrow: shipped, then confirmed by the test helper.
    const escrowTriggered = await CliProcess.run(['trigger', 'escrow.confirmed'], env());
    expect(escrowTriggered.code).toBe(0);
    const escrowPaymentId = /payment (pay_\w+) created/.exec(escrowTriggered.stdout.join('\n'))![1];
    const gotEscrow = await CliProcess.run(['payments', 'get', escrowPaymentId], env());
    expect(gotEscrow.code).toBe(0);
    expect(JSON.parse(gotEscrow.stdout.join('\n')).data.escrow).toEqual(
      expect.objectContaining({
        status: 'confirmed',
        carrier: 'payhook CLI',
        trackingNumber: expect.stringMatching(/^cli-/),
        shippedAt: expect.any(String),
        autoConfirmAt: expect.any(String),
        confirmedAt: expect.any(String),
        rejectedAt: null,
        rejectReason: null,
      }),
    );

    const events = (await stack.api.as(merchant).get(`/v1/events?paymentId=${paymentId}`).expect(200)).body.data;
    const resent = await CliProcess.run(['events', 'resend', events[0].id], env());
    expect(resent).toEqual({ code: 0, stdout: [`event ${events[0].id} queued`], stderr: [] });

    const missing = await CliProcess.run(['payments', 'get', 'pay_000000000000000000000000'], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toEqual([
      expect.stringMatching(/^payhook payments: payhook answered 404 resource_not_found/),
    ]);
    const wrong = await CliProcess.run(['trigger', 'payment.refunded'], env());
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toEqual([expect.stringMatching(/^payhook trigger: Unknown event type "payment.refunded"/)]);
  }, 120_000);

  it('loses nothing when its connection drops mid-stream: it reconnects and gets what it missed', async () => {
    // The CLI reaches payhook through a proxy the test takes down, as a laptop's network drops.
    const address = new URL(stack.api.baseUrl);
    const proxy = new TcpProxy(address.hostname, Number(address.port));
    await proxy.up();
    try {
      const cli = listen(['--events', 'payment.completed'], `http://127.0.0.1:${proxy.port}`);
      const { secret } = await started(cli);
      const client = new PayhookClient({ apiKey: merchant.key, baseUrl: stack.api.baseUrl });
      const complete = async () => {
        const payment = await client.createPayment({
          orderId: `cli-drop-${Math.random().toString(36).slice(2)}`,
          customerId: 'customer-1',
          amount: 1000,
          currency: 'KRW',
          returnUrl: 'https://shop.example/return',
        });
        await client.moveTestPayment(payment.id, 'complete');
        return payment.id;
      };
      const completedIds = async (paymentIds: string[]) =>
        Promise.all(
          paymentIds.map(async (paymentId) => {
            const listed = (await stack.api.as(merchant).get(`/v1/events?paymentId=${paymentId}`).expect(200)).body;
            return listed.data[0].id as string;
          }),
        );

      const before = [await complete(), await complete()];
      await pollUntil(
        async () => receivedIds(),
        (ids) => ids.size === 2,
      );

      await proxy.down();
      const during = [await complete(), await complete(), await complete()];
      await pollUntil(
        async () => cli.stderr,
        (lines) => lines.some((line) => line.startsWith('Connection lost')),
      );
      await proxy.up();
      const after = [await complete()];

      const expected = await completedIds([...before, ...during, ...after]);
      await pollUntil(
        async () => receivedIds(),
        (ids) => expected.every((id) => ids.has(id)),
        { timeoutMs: 60_000 },
      );
      for (const delivery of handler.received) expectVerified(delivery, secret);
      // Only the one type it asked for, and nothing from before the session.
      expect([...receivedIds()].sort()).toEqual([...expected].sort());
      expect(cli.stderr).toContainEqual('Reconnected; events sent meanwhile follow.');
      await expect(cli.interrupt()).resolves.toBe(0);
    } finally {
      await proxy.down();
    }
  }, 180_000);

  it('records one attempt per event and session, only of events the session was sent', async () => {
    const api = stack.api.as(merchant);
    const newEvent = async (type: string) => {
      const ids = async () =>
        ((await api.get('/v1/events').query({ type }).expect(200)).body.data as { id: string }[]).map(({ id }) => id);
      const before = await ids();
      expect((await CliProcess.run(['trigger', type], env())).code).toBe(0);
      const after = await pollUntil(ids, (found) => found.length > before.length);
      return after.find((id) => !before.includes(id))!;
    };
    const earlier = await newEvent('payment.completed');
    const open = async () =>
      (
        await api
          .post('/v1/listen-sessions')
          .send({ enabledEvents: ['payment.completed'] })
          .expect(201)
      ).body.data;
    const [first, second] = [await open(), await open()];
    const completed = await newEvent('payment.completed');
    const failed = await newEvent('payment.failed');
    const report = (sessionId: string, eventId: string, fields: object = {}) =>
      api
        .post(`/v1/listen-sessions/${sessionId}/attempts`)
        .send({ eventId, durationMs: 3, responseStatus: 200, ...fields });

    const recorded = (await report(first.id, completed).expect(201)).body.data;
    expect(recorded).toEqual(expect.objectContaining({ endpointId: first.id, responseStatus: 200 }));
    // A repeat answers with the same attempt and counts nothing more.
    const again = (await report(first.id, completed, { responseStatus: 500 }).expect(201)).body.data;
    expect(again).toEqual(recorded);
    const other = (await report(second.id, completed).expect(201)).body.data;
    expect(other.number).toBe(recorded.number + 1);
    const { attempts } = (await api.get(`/v1/events/${completed}`).expect(200)).body.data;
    expect(attempts.map((attempt: { id: string }) => attempt.id).sort()).toEqual([recorded.id, other.id].sort());

    // Not sent to the session: a type it does not take, or an event from before it began.
    for (const eventId of [failed, earlier]) {
      expectApiError(await report(first.id, eventId), { status: 400, code: 'parameter_invalid', param: 'eventId' });
    }
  });

  it("audits the failed test refund of trigger refund.failed as the API key's, like any refund", async () => {
    const triggered = await CliProcess.run(['trigger', 'refund.failed'], env());
    expect(triggered.code).toBe(0);
    const [, refundId] = triggered.stdout
      .map((line) => /^refund (rfd_[0-9A-Za-z]{24}) failed$/.exec(line))
      .find(Boolean)!;
    expect(
      await stack.api.sql('SELECT merchant_id, actor, action FROM audit_log WHERE target = $1', [refundId]),
    ).toEqual([{ merchant_id: merchant.merchantId, actor: merchant.keyId, action: 'refund.created' }]);
  });

  it('refuses a live key in one line and exits 1', async () => {
    const live = await stack.api.merchantWithKey('live', { live: true });
    const result = await CliProcess.run(['listen', '--forward-to', handler.url], {
      PAYHOOK_API_KEY: live.key,
      PAYHOOK_API_URL: stack.api.baseUrl,
    });
    expect(result).toEqual({
      code: 1,
      stdout: [],
      stderr: ['payhook listen: payhook listen works with test keys only (svc_test_…); PAYHOOK_API_KEY is a live key.'],
    });
    // Named by where it came from.
    const passed = await CliProcess.run(['trigger', 'payment.completed', '--api-key', live.key], {
      PAYHOOK_API_URL: stack.api.baseUrl,
    });
    expect(passed).toEqual({
      code: 1,
      stdout: [],
      stderr: ['payhook trigger: payhook trigger works with test keys only (svc_test_…); --api-key is a live key.'],
    });
    // The API refuses it too, for any client.
    expectApiError(await stack.api.as(live).post('/v1/listen-sessions').send({}), {
      status: 403,
      code: 'test_mode_only',
    });
  });

  it('answers a URL it cannot use in one line, as wrong usage', async () => {
    for (const [args, source] of [
      [['--api-url', 'http://a b'], '--api-url'],
      [[], 'PAYHOOK_API_URL'],
    ] as const) {
      const result = await CliProcess.run(['payments', 'list', ...args], { ...env(), PAYHOOK_API_URL: 'http://x y' });
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: [] });
      expect(result.stderr).toEqual([expect.stringContaining(`${source} must be an http(s) URL`)]);
    }
  });

  it('answers bad input with the error shape, bounds the open sessions per mode, and ends sessions', async () => {
    const api = stack.api.as(merchant);
    expectApiError(await api.post('/v1/listen-sessions').send({ enabledEvents: ['payment.paid'] }), {
      status: 400,
      code: 'parameter_invalid',
      param: 'enabledEvents',
    });
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push((await api.post('/v1/listen-sessions').expect(201)).body.data);
    expect(sessions[0]).toEqual({
      id: expect.stringMatching(/^lsn_[0-9A-Za-z]{24}$/),
      signingSecret: expect.stringMatching(/^whsec_[0-9A-Za-z]{32}$/),
      livemode: false,
      enabledEvents: null,
      status: 'open',
      createdAt: expect.any(String),
      endedAt: null,
    });
    expectApiError(await api.post('/v1/listen-sessions').send({}), {
      status: 409,
      code: 'listen_session_limit_reached',
    });
    // Another merchant's sessions are its own.
    const other = await stack.api.merchantWithKey('test');
    await stack.api.as(other).post('/v1/listen-sessions').expect(201);
    expectApiError(await stack.api.as(other).get(`/v1/listen-sessions/${sessions[0].id}`), {
      status: 404,
      code: 'resource_not_found',
    });

    // The secret is in the creating POST's answer only.
    const { signingSecret, ...withoutSecret } = sessions[0];
    expect(signingSecret).toEqual(expect.any(String));
    expect((await api.get(`/v1/listen-sessions/${sessions[0].id}`).expect(200)).body.data).toEqual(withoutSecret);
    const ended = (await api.delete(`/v1/listen-sessions/${sessions[0].id}`).expect(200)).body.data;
    expect(ended).toEqual({ ...withoutSecret, status: 'ended', endedAt: expect.any(String) });
    await api.post('/v1/listen-sessions').expect(201);
    expectApiError(await api.get(`/v1/listen-sessions/${sessions[0].id}/stream`), {
      status: 409,
      code: 'listen_session_ended',
    });
    expectApiError(
      await api.post(`/v1/listen-sessions/${sessions[1].id}/attempts`).send({ eventId: 'evt_x', durationMs: 1 }),
      { status: 400, code: 'parameter_invalid', param: 'eventId' },
    );
    expectApiError(
      await api
        .post(`/v1/listen-sessions/${sessions[1].id}/attempts`)
        .send({ eventId: 'evt_000000000000000000000000', durationMs: 1, responseStatus: 200 }),
      { status: 404, code: 'resource_not_found', param: 'eventId' },
    );
    // Postgres text cannot hold NUL: dropped, rather than a 500 the CLI would meet again and again.
    expect((await CliProcess.run(['trigger', 'payment.completed'], env())).code).toBe(0);
    const [event] = (await api.get('/v1/events').query({ type: 'payment.completed' }).expect(200)).body.data;
    expect(
      (
        await api
          .post(`/v1/listen-sessions/${sessions[1].id}/attempts`)
          .send({ eventId: event.id, durationMs: 1, responseStatus: 200, responseBody: 'o\u0000k', error: '\u0000' })
          .expect(201)
      ).body.data,
    ).toEqual(expect.objectContaining({ responseBody: 'ok', error: '' }));
    expectApiError(await api.get('/v1/listen-sessions/lsn_000000000000000000000000'), {
      status: 404,
      code: 'resource_not_found',
    });
  });
});
