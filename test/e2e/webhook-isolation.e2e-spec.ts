import type { INestApplication } from '@nestjs/common';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { completePayment, createPayment } from '../support/webhook-scenario';

jest.setTimeout(90_000);

const OWED_TO_HANGING = 500;
const HEALTHY_EVENTS = 20;
/** Far below the hanging endpoint's timeout: a healthy event never waits for a hanging attempt. */
const HEALTHY_BOUND_MS = 2_000;

/** Long enough for a closing socket's close to be read, far below the attempt timeout. */
const SETTLE_MS = 100;

/** An endpoint that accepts connections and never answers; counts the connections open at once. */
class HangingEndpoint {
  private readonly sockets = new Set<Socket>();
  peakOpen = 0;
  accepted = 0;

  private constructor(private readonly server: Server) {
    server.on('connection', (socket) => {
      this.accepted++;
      this.sockets.add(socket);
      // Counted a moment later: a dispatcher frees a slot when it aborts a timed-out attempt, and
      // the next attempt's connection can be accepted here before the aborted socket's close is
      // read. An attempt really holding a slot is still open then (it hangs for the whole timeout).
      setTimeout(() => (this.peakOpen = Math.max(this.peakOpen, this.sockets.size)), SETTLE_MS).unref();
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<HangingEndpoint> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new HangingEndpoint(server);
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * ADR 0007: one merchant's endpoint hangs while payhook owes it hundreds of events; another
 * merchant's webhooks keep arriving as if it did not exist, with two dispatchers competing.
 */
describe('webhook isolation between merchants', () => {
  let stack: WebhookStack;
  let secondDispatcher: INestApplication;
  let hanging: HangingEndpoint;
  let healthy: TestMerchant;
  let troubled: TestMerchant;

  beforeAll(async () => {
    const overrides = { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s', RATE_LIMIT_PER_SECOND: '0' };
    stack = await startWebhookStack('isolation', overrides);
    [secondDispatcher, hanging] = await Promise.all([
      startDispatcher({ ...stack.services.env, ...overrides }),
      HangingEndpoint.start(),
    ]);
    [healthy, troubled] = await Promise.all([stack.api.merchantWithKey('test'), stack.api.merchantWithKey('test')]);
    await stack.api.as(healthy).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
    await stack.api.as(troubled).put('/v1/webhook-endpoint').send({ url: hanging.url }).expect(200);
  });
  afterAll(async () => {
    await secondDispatcher.close();
    await hanging.stop();
    await stack.stop();
  });

  it('delivers a healthy merchant’s webhooks within the bound while another’s endpoint hangs', async () => {
    // Owe the hanging endpoint its events, ten completions at a time.
    const owed = await Promise.all(
      Array.from({ length: OWED_TO_HANGING / 10 }, async () => {
        const ids: string[] = [];
        for (let i = 0; i < 10; i++) ids.push(await createPayment(stack.api, troubled));
        for (const id of ids) await stack.api.as(troubled).post(`/v1/test-helpers/payments/${id}/complete`).expect(200);
        return ids;
      }),
    );
    expect(owed.flat()).toHaveLength(OWED_TO_HANGING);

    const troubledHealth = async () =>
      (await stack.api.as(troubled).get('/v1/webhook-endpoint').expect(200)).body.data as {
        consecutiveFailures: number;
        lastError: string | null;
      };
    // Measured across the whole story: the owed events arriving, their attempts hanging until they
    // time out, the circuit opening, and the retries waiting in the lane.
    const latencies: number[] = [];
    while (latencies.length < HEALTHY_EVENTS || (await troubledHealth()).consecutiveFailures < 3) {
      const paymentId = await createPayment(stack.api, healthy);
      const completedAt = Date.now();
      const eventId = await completePayment(stack.api, healthy, paymentId);
      const [delivery] = await pollUntil(
        async () => stack.receiver.forEvent(eventId),
        (received) => received.length > 0,
        { timeoutMs: 30_000, intervalMs: 5 },
      );
      latencies.push(delivery.receivedAt - completedAt);
    }
    expect(latencies.filter((ms) => ms > HEALTHY_BOUND_MS)).toEqual([]);

    // The hanging endpoint never held more than its slots on each of the two dispatchers.
    expect(hanging.peakOpen).toBeLessThanOrEqual(2 * 10);
    expect((await troubledHealth()).lastError).toMatch(/timed out|timeout/i);

    // Nothing owed is lost: every one of its events is still pending or has been tried.
    const [counts] = await stack.api.sql<{ pending: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE delivery_status = 'pending')::int AS pending,
              count(*) FILTER (WHERE delivery_status = 'failed')::int AS failed
       FROM events WHERE merchant_id = $1`,
      [troubled.merchantId],
    );
    expect(counts.pending + counts.failed).toBe(OWED_TO_HANGING);
  });
});
