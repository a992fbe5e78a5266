import type { INestApplication } from '@nestjs/common';
import { retryWaitQueue, webhookTopology } from '@payhook/messaging';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import request, { type Response } from 'supertest';
import { isolatedServices, type IsolatedServices } from '../support/isolated-services';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { timeFor } from '../support/time-budget';
import { startDispatcher } from '../support/webhook-dispatcher.harness';
import { WebhookReceiver } from '../support/webhook-receiver';
import {
  completePayment,
  completedPayment,
  createPayment,
  eventUntil,
  respondPerPayment,
  signatureCheck,
} from '../support/webhook-scenario';

// The biggest test's work: two dispatchers booted, 200 payments created and completed.
jest.setTimeout(timeFor({ app: 2, request: 400 }));

/**
 * The killed process's retry waits this long in RabbitMQ: long enough to see it parked there and kill
 * the process before it is due, however slowly rabbitmqctl answers on a busy machine.
 */
const RETRY_WAIT_MS = 10_000;

const ROOT = resolve(__dirname, '../..');
/** The real build and entry point, as production starts it (built once for the run by the scenarios' setup). */
const DISPATCHER_MAIN = 'dist/apps/webhook-dispatcher/src/main.js';

/**
 * Deliveries are at least once and the retry wait lives in RabbitMQ, so neither a
 * dispatcher crash nor a dropped broker connection loses a webhook. This spec has a database and a
 * vhost of its own: it closes every connection of its vhost and counts every delivery.
 */
describe('webhook delivery resilience', () => {
  let services: IsolatedServices;
  let api: PaymentsApiHarness;
  let receiver: WebhookReceiver;
  let plans: ReturnType<typeof respondPerPayment>;
  let merchant: TestMerchant;
  let signingSecret: string;

  beforeAll(async () => {
    services = await isolatedServices('resilience', { ownVhost: true });
    // Hundreds of calls a second with one key: rate limiting is not under test here.
    [api, receiver] = await Promise.all([
      PaymentsApiHarness.start({ ...services.env, RATE_LIMIT_PER_SECOND: '0' }),
      WebhookReceiver.start(),
    ]);
    plans = respondPerPayment(receiver);
  });
  afterAll(async () => {
    await api.stop();
    await receiver.stop();
    await services.drop();
  });
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
    const endpoint = await api.as(merchant).put('/v1/webhook-endpoint').send({ url: receiver.url }).expect(200);
    signingSecret = endpoint.body.data.signingSecret;
  });

  describe('a dispatcher process killed while a retry waits', () => {
    const running: ChildProcess[] = [];

    afterAll(async () => {
      await Promise.all(running.map(stop));
    });

    async function startProcess(): Promise<ChildProcess> {
      const port = await freePort();
      const child = spawn(process.execPath, ['--enable-source-maps', DISPATCHER_MAIN], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          ...services.env,
          NODE_ENV: 'test',
          // The receiver listens on 127.0.0.1.
          WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
          DISPATCHER_PORT: String(port),
          WEBHOOK_RETRY_SCHEDULE: `${RETRY_WAIT_MS / 1000}s`,
          WEBHOOK_TIMEOUT_MS: '2000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      running.push(child);
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      await pollUntil(
        async () => {
          if (child.exitCode !== null) throw new Error(`dispatcher exited with ${child.exitCode}:\n${output}`);
          return fetch(`http://127.0.0.1:${port}/ready`).then(
            (response) => response.status,
            () => 0,
          );
        },
        (status) => status === 200,
        { intervalMs: 100 },
      );
      return child;
    }

    const deliveryQueue = () => webhookTopology(services.env.AMQP_NAMESPACE).deliveryQueue;

    it('delivers the retry from RabbitMQ through a new process after SIGKILL', async () => {
      const first = await startProcess();
      const paymentId = await createPayment(api, merchant);
      plans.set(paymentId, (attempt) => (attempt === 1 ? { status: 500, body: 'not yet' } : { status: 200 }));
      const eventId = await completePayment(api, merchant, paymentId);

      await eventUntil(api, merchant, eventId, (event) => event.attempts.length === 1);
      // The process dies only once the retry is parked in its wait queue and the first message is
      // acknowledged: seen well before the retry is due (it leaves the wait queue after 90% of it).
      await pollUntil(
        () => queues(services),
        (depth) =>
          depth[retryWaitQueue(services.env.AMQP_NAMESPACE, RETRY_WAIT_MS)]?.ready === 1 &&
          depth[deliveryQueue()]?.unacked === 0,
        { timeoutMs: RETRY_WAIT_MS / 2, intervalMs: 0 },
      );
      await stop(first);

      await startProcess();
      const event = await eventUntil(api, merchant, eventId, (data) => data.deliveryStatus === 'succeeded');
      expect(event.attempts.map((attempt) => attempt.responseStatus)).toEqual([500, 200]);
      const deliveries = receiver.forEvent(eventId);
      expect(deliveries).toHaveLength(2);
      expect(deliveries.map((delivery) => signatureCheck(delivery, signingSecret))).toEqual(['valid', 'valid']);
      // It was the scheduled retry (its wait less 10% jitter), not the first message coming back at once.
      expect(deliveries[1].receivedAt - deliveries[0].receivedAt).toBeGreaterThanOrEqual(RETRY_WAIT_MS * 0.9);
    });

    it('stops at once with one line naming the service that does not answer and its variable', async () => {
      const [databasePort, brokerPort] = [await freePort(), await freePort()];
      const child = spawn(process.execPath, [DISPATCHER_MAIN], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
          DATABASE_URL: `postgres://payhook:s3cret@127.0.0.1:${databasePort}/payhook`,
          AMQP_URL: `amqp://guest:guest@127.0.0.1:${brokerPort}`,
          DISPATCHER_PORT: String(await freePort()),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((done) => child.once('exit', done));
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toEqual([
        `payhook cannot start: PostgreSQL does not answer at 127.0.0.1:${databasePort} (ECONNREFUSED). ` +
          'Start it, or set DATABASE_URL to one that answers.',
        `payhook cannot start: RabbitMQ does not answer at 127.0.0.1:${brokerPort} (ECONNREFUSED). ` +
          'Start it, or set AMQP_URL to one that answers.',
      ]);
    });
  });

  describe('with in-process dispatchers', () => {
    const dispatchers: INestApplication[] = [];

    afterEach(async () => {
      await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.close()));
    });

    it('delivers every completed payment when RabbitMQ closes all connections mid-stream', async () => {
      dispatchers.push(await startDispatcher(services.env));
      const before = [];
      for (let i = 0; i < 5; i++) before.push(await completedPayment(api, merchant));
      // Both apps are connected to this spec's vhost: the close below hits them.
      const open = await rabbitmqctl(
        'list_connections',
        '-p',
        services.vhost,
        '--no-table-headers',
        'client_properties',
      );
      expect(open).toContain('"payhook-payments-api"');
      expect(open).toContain('"payhook-webhook-dispatcher"');

      let closed = false;
      const closing = rabbitmqctl('close_all_connections', '-p', services.vhost, 'test').finally(() => (closed = true));
      const during = [];
      while (!closed) during.push(await completedPayment(api, merchant));
      await closing;
      const after = [];
      for (let i = 0; i < 5; i++) after.push(await completedPayment(api, merchant));

      const eventIds = [...before, ...during, ...after].map(({ eventId }) => eventId);
      expect(during.length).toBeGreaterThan(0);
      await pollUntil(
        async () => eventIds.filter((eventId) => receiver.forEvent(eventId).length === 0),
        (undelivered) => undelivered.length === 0,
        { intervalMs: 200 },
      );
      for (const eventId of eventIds) {
        await eventUntil(api, merchant, eventId, (event) => event.deliveryStatus === 'succeeded');
      }
    });

    it('shares 200 completions between two dispatcher instances and delivers each event', async () => {
      dispatchers.push(...(await Promise.all([startDispatcher(services.env), startDispatcher(services.env)])));
      const paymentIds: string[] = [];
      for (let batch = 0; batch < 20; batch++) {
        paymentIds.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, async () => {
              const paymentId = await createPayment(api, merchant);
              await api.as(merchant).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
              return paymentId;
            }),
          )),
        );
      }

      const events = await allEvents(api, merchant);
      expect(events).toHaveLength(200);
      expect(new Set(events.map((event) => event.data.paymentId))).toEqual(new Set(paymentIds));
      const eventIds = new Set(events.map((event) => event.id));
      const delivered = () =>
        new Set(
          receiver.received
            .map((delivery) => delivery.headers['service-event-id'] as string)
            .filter((eventId) => eventIds.has(eventId)),
        );
      await pollUntil(
        async () => delivered().size,
        (size) => size === 200,
        { intervalMs: 200 },
      );
      await pollUntil(
        () => allEvents(api, merchant),
        (listed) => listed.every((event) => event.deliveryStatus === 'succeeded'),
        { intervalMs: 200 },
      );
      // Both instances took part.
      for (const dispatcher of dispatchers) {
        const metrics = await request(dispatcher.getHttpServer()).get('/metrics').expect(200);
        expect(attemptsIn(metrics.text)).toBeGreaterThan(0);
      }
    });
  });
});

interface ListedEvent {
  id: string;
  deliveryStatus: string;
  data: { paymentId: string };
}

async function allEvents(api: PaymentsApiHarness, merchant: TestMerchant): Promise<ListedEvent[]> {
  const events: ListedEvent[] = [];
  let cursor: string | null = null;
  do {
    const page: Response = await api
      .as(merchant)
      .get('/v1/events')
      .query(cursor ? { limit: '100', cursor } : { limit: '100' })
      .expect(200);
    events.push(...(page.body.data as ListedEvent[]));
    cursor = page.body.nextCursor;
  } while (cursor !== null);
  return events;
}

/** Ready and unacknowledged messages of each queue of the spec's vhost, as RabbitMQ counts them. */
async function queues(services: IsolatedServices): Promise<Record<string, { ready: number; unacked: number }>> {
  const table = await rabbitmqctl(
    'list_queues',
    '-p',
    services.vhost,
    '--no-table-headers',
    'name',
    'messages_ready',
    'messages_unacknowledged',
  );
  return Object.fromEntries(
    table
      .trim()
      .split('\n')
      .map((line) => line.split('\t'))
      .map(([name, ready, unacked]) => [name, { ready: Number(ready), unacked: Number(unacked) }]),
  );
}

/** Sum of payhook_webhook_attempts_total over its labels. */
function attemptsIn(metrics: string): number {
  return metrics
    .split('\n')
    .filter((line) => line.startsWith('payhook_webhook_attempts_total'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

async function rabbitmqctl(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('rabbitmqctl', ['-q', ...args]);
  return stdout;
}

/** DISPATCHER_PORT must be 1-65535: take a port the OS says is free. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGKILL');
  await exited;
}
