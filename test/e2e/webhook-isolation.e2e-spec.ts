import type { INestApplication } from '@nestjs/common';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import request from 'supertest';
import { MAX_IN_FLIGHT_PER_ENDPOINT } from '../../apps/webhook-dispatcher/src/deliveries/endpoint-slots';
import type { TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { timeFor } from '../support/time-budget';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';
import { completePayment, createPayment } from '../support/webhook-scenario';

const OWED_TO_HANGING = 500;
const HEALTHY_EVENTS = 20;
/** How long an attempt at the hanging endpoint waits for an answer. */
const WEBHOOK_TIMEOUT_MS = 15_000;
/**
 * A healthy event that waited for a hanging attempt would take at least that attempt's timeout;
 * half of it leaves room for the seconds a busy machine adds, and still tells the two apart.
 */
const HEALTHY_BOUND_MS = WEBHOOK_TIMEOUT_MS / 2;

// Creating and completing the owed payments, then healthy ones until the hanging attempts have
// timed out a few times.
jest.setTimeout(timeFor({ request: 2 * OWED_TO_HANGING + 3 * HEALTHY_EVENTS }) + 3 * WEBHOOK_TIMEOUT_MS);

/** An endpoint that accepts connections and never answers. */
class HangingEndpoint {
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
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
    const overrides = {
      WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s',
      RATE_LIMIT_PER_SECOND: '0',
    };
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
        { intervalMs: 5 },
      );
      latencies.push(delivery.receivedAt - completedAt);
    }
    expect(latencies.filter((ms) => ms > HEALTHY_BOUND_MS)).toEqual([]);

    // Neither dispatcher ever had more requests in flight to one endpoint than its slots, and the
    // hanging one filled them: counted by each dispatcher's HTTP client from a request's start until
    // it finished or failed, apart from the slots (a slot released early shows here), and not as
    // sockets seen at the endpoint (an aborted attempt's socket can still look open there).
    const starts = await Promise.all([stack.dispatcher, secondDispatcher].map(requestStartsByInFlight));
    for (const counted of starts) expect(counted.beyondLimit).toBe(0);
    expect(starts.some((counted) => counted.atLimit > 0)).toBe(true);
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

/**
 * Webhook requests one dispatcher started, by the requests to their endpoint then in flight, from
 * its payhook_webhook_requests_in_flight_per_endpoint histogram on /metrics.
 */
async function requestStartsByInFlight(
  dispatcher: INestApplication,
): Promise<{ atLimit: number; beyondLimit: number }> {
  const metrics = (await request(dispatcher.getHttpServer()).get('/metrics').expect(200)).text;
  const sample = (suffix: string) => {
    const name = `payhook_webhook_requests_in_flight_per_endpoint${suffix}`;
    const line = metrics.split('\n').find((text) => text.startsWith(`${name} `));
    if (line === undefined) throw new Error(`no ${name} in /metrics`);
    return Number(line.split(' ').at(-1));
  };
  const upTo = (slots: number) => sample(`_bucket{le="${slots}"}`);
  return {
    atLimit: upTo(MAX_IN_FLIGHT_PER_ENDPOINT) - upTo(MAX_IN_FLIGHT_PER_ENDPOINT - 1),
    beyondLimit: sample('_count') - upTo(MAX_IN_FLIGHT_PER_ENDPOINT),
  };
}
