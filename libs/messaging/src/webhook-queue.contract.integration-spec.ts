import type { ClientProxy } from '@nestjs/microservices';
import { dataSourceOptions } from '@payhook/persistence';
import * as amqplib from 'amqplib';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import { randomBytes } from 'node:crypto';
import { lastValueFrom } from 'rxjs';
import { DataSource } from 'typeorm';
import { isolatedServices, type IsolatedServices } from '../../../test/support/isolated-services';
import { createAmqpConnection } from './amqp-connection';
import { PostgresQueueClient } from './postgres-queue.client';
import { PostgresQueueServer } from './postgres-queue.server';
import { MAX_BACKOFFS, type QueueDecision } from './queue-handling';
import { WebhookQueueClient } from './webhook-queue.client';
import { WebhookQueueServer } from './webhook-queue.server';
import {
  retryWaitQueue,
  webhookTopology,
  WEBHOOK_DELIVER_ROUTING_KEY as PATTERN,
  WEBHOOK_RECOVER_ROUTING_KEY,
} from './webhook-topology';

type Handle = (body: string) => Promise<QueueDecision | void> | QueueDecision | void;
interface ServeOptions {
  prefetch?: number;
  onDeadLetter?: (reason: string) => void;
}
type QueueServer = WebhookQueueServer | PostgresQueueServer;

/** What the contract needs of a transport: a client, servers, and a look at what it keeps. */
interface Transport {
  client: ClientProxy;
  server(options: Required<Pick<ServeOptions, 'prefetch'>> & ServeOptions): QueueServer;
  /** Messages waiting or in hand (not dead): 0 once every one was acknowledged. */
  pending(): Promise<number>;
  /** Bodies of the messages kept apart as dead letters, oldest first. */
  deadLetters(): Promise<string[]>;
  /** Forgets everything between tests. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** The retry delay the contract asks for: a RabbitMQ wait queue exists for each step of the schedule. */
const RETRY_DELAY_MS = 400;
const DRAIN_TIMEOUT_MS = 5_000;

/**
 * The Postgres transport (local mode, ADR 0009) in the table webhook_queue: NOTIFY wakes the
 * servers, dead letters stay as rows with their reason.
 */
async function postgresTransport(services: IsolatedServices): Promise<Transport & { db: DataSource }> {
  const db = await new DataSource(
    dataSourceOptions({ url: services.env.DATABASE_URL, entities: [], applicationName: 'payhook-queue-spec' }),
  ).initialize();
  const client = new PostgresQueueClient(db);
  await client.connect();
  const count = async (dead: boolean) =>
    Number(
      (
        await db.query<{ n: string }[]>(
          `SELECT count(*) AS n FROM webhook_queue WHERE (dead_reason IS NOT NULL) = $1`,
          [dead],
        )
      )[0].n,
    );
  return {
    db,
    client,
    server: (options) =>
      new PostgresQueueServer({
        db,
        databaseUrl: services.env.DATABASE_URL,
        drainTimeoutMs: DRAIN_TIMEOUT_MS,
        leaseMs: 30_000,
        backOffMs: 50,
        ...options,
      }),
    pending: () => count(false),
    deadLetters: async () =>
      (
        await db.query<{ body: string }[]>(`SELECT body FROM webhook_queue WHERE dead_reason IS NOT NULL ORDER BY id`)
      ).map((row) => row.body),
    reset: async () => void (await db.query('DELETE FROM webhook_queue')),
    close: () => db.destroy(),
  };
}

/**
 * The RabbitMQ transport (ADR 0008) on this run's vhost, a namespace of its own per test: retries
 * wait in a queue per step, back-offs in the defer queue (shortened here), dead letters in their queue.
 */
async function rabbitMqTransport(services: IsolatedServices): Promise<Transport> {
  const connection: AmqpConnectionManager = createAmqpConnection([services.env.AMQP_URL], 'payhook-queue-spec');
  // A plain connection of the test's own to look into the queues.
  const inspector = await amqplib.connect(services.env.AMQP_URL);
  let namespace = '';
  let topology = webhookTopology('unset');
  let client: WebhookQueueClient | undefined;
  const fresh = async () => {
    await client?.close();
    namespace = `${services.env.AMQP_NAMESPACE}_${randomBytes(3).toString('hex')}`;
    topology = { ...webhookTopology(namespace), deferDelayMs: 50 };
    client = new WebhookQueueClient({ connection, topology, confirmTimeoutMs: 5_000 });
    await client.connect();
  };
  await fresh();
  /** Runs `look` on a channel of its own: what it takes and does not acknowledge goes back on close. */
  const lookInto = async <T>(look: (channel: amqplib.Channel) => Promise<T>): Promise<T> => {
    const channel = await inspector.createChannel();
    // A queue not declared yet closes the channel (404); the look fails with it, not the process.
    channel.on('error', () => undefined);
    try {
      return await look(channel);
    } finally {
      await channel.close().catch(() => undefined);
    }
  };
  return {
    get client() {
      return client!;
    },
    server: (options) =>
      new WebhookQueueServer({
        connection,
        topology,
        namespace,
        retryScheduleMs: [RETRY_DELAY_MS],
        drainTimeoutMs: DRAIN_TIMEOUT_MS,
        ...options,
      }),
    // Waiting in the delivery queue, a retry's or the defer queue, or handed out and not acknowledged.
    pending: () =>
      lookInto(async (channel) => {
        let total = 0;
        for (const queue of [topology.deliveryQueue, topology.deferQueue, retryWaitQueue(namespace, RETRY_DELAY_MS)]) {
          total += (await channel.checkQueue(queue)).messageCount;
        }
        return total;
      }),
    deadLetters: () =>
      lookInto(async (channel) => {
        const bodies: string[] = [];
        for (let message = await channel.get(topology.deadLetterQueue); message;) {
          bodies.push(message.content.toString('utf8'));
          message = await channel.get(topology.deadLetterQueue);
        }
        return bodies;
      }),
    reset: fresh,
    close: async () => {
      await client?.close();
      await connection.close();
      await inspector.close();
    },
  };
}

/**
 * The contract both webhook queue transports keep (ADR 0008, 0009): what a handler returns is carried
 * out exactly so, on RabbitMQ and on Postgres alike; competing servers share the work; close lets a
 * running handler finish. The dispatcher's specs run on RabbitMQ; this suite is what lets the
 * Postgres queue of local mode stand in for it (one flow spec runs on both: npm run test:postgres-queue).
 */
describe.each([
  ['RabbitMQ', rabbitMqTransport],
  ['Postgres', postgresTransport],
] as const)('the webhook queue on %s', (_name, open) => {
  let services: IsolatedServices;
  let transport: Transport;
  const servers: QueueServer[] = [];

  beforeAll(async () => {
    services = await isolatedServices('queue');
    transport = await open(services);
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await transport.reset();
  });
  afterAll(async () => {
    await transport?.close();
    await services?.drop();
  });

  /** A server whose handler is `handle`, listening until the test ends. */
  async function serve(handle: Handle, options: ServeOptions = {}): Promise<QueueServer> {
    const server = transport.server({ prefetch: 10, ...options });
    server.addHandler(PATTERN, (body: string) => Promise.resolve(handle(body)), true);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(() => resolve()));
    return server;
  }

  const emit = (body: string) =>
    lastValueFrom(transport.client.emit(PATTERN, { body, type: 'test', messageId: body }), {
      defaultValue: undefined,
    });

  async function until<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  const handled = (seen: unknown[], count: number) => until(() => (seen.length >= count ? true : undefined));
  const drained = () => until(async () => ((await transport.pending()) === 0 ? true : undefined));
  // Told (onDeadLetter) and kept apart happen in either order: the broker moves a rejected message
  // after the reject is reported, Postgres reports once the row's move has committed.
  const deadLettered = (reasons: string[], count: number) =>
    until(async () => (reasons.length >= count && (await transport.deadLetters()).length >= count ? true : undefined));

  it('hands an emitted message to the handler and removes it when acknowledged', async () => {
    const seen: string[] = [];
    await serve((body) => void seen.push(body));
    await emit('{"n":1}');
    await handled(seen, 1);
    await drained();
    expect(seen).toEqual(['{"n":1}']);
  });

  it('hands a retry back after its delay, with the content the handler gave', async () => {
    const seen: { body: string; at: number }[] = [];
    await serve((body) => {
      seen.push({ body, at: Date.now() });
      if (seen.length === 1)
        return { kind: 'retry', content: { retryStep: 1 }, delayMs: RETRY_DELAY_MS, scheduledDelayMs: RETRY_DELAY_MS };
    });
    await emit('{"retryStep":0}');
    await handled(seen, 2);
    await drained();
    expect(seen.map((one) => one.body)).toEqual(['{"retryStep":0}', '{"retryStep":1}']);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(RETRY_DELAY_MS - 50);
  });

  it('keeps a dead-lettered message apart, with its reason, and never hands it out again', async () => {
    const seen: string[] = [];
    const reasons: string[] = [];
    await serve(
      (body) => {
        seen.push(body);
        return { kind: 'dead-letter', reason: 'not a delivery request' };
      },
      { onDeadLetter: (reason) => reasons.push(reason) },
    );
    await emit('garbage');
    await deadLettered(reasons, 1);
    await emit('next');
    await deadLettered(reasons, 2);
    expect(seen).toEqual(['garbage', 'next']);
    expect(reasons).toEqual(['not a delivery request', 'not a delivery request']);
    expect(await transport.deadLetters()).toEqual(['garbage', 'next']);
    expect(await transport.pending()).toBe(0);
  });

  it('backs off a handler that throws, and dead-letters the message after MAX_BACKOFFS counted failures', async () => {
    let calls = 0;
    const reasons: string[] = [];
    await serve(
      () => {
        calls += 1;
        throw new Error('database said no');
      },
      { onDeadLetter: (reason) => reasons.push(reason) },
    );
    await emit('{"n":2}');
    await deadLettered(reasons, 1);
    expect(calls).toBe(MAX_BACKOFFS + 1);
    expect(reasons).toEqual([`failed ${MAX_BACKOFFS} times: database said no`]);
    expect(await transport.deadLetters()).toEqual(['{"n":2}']);
  });

  it('defers a message that waits for room as often as needed, without counting toward dead-lettering', async () => {
    let calls = 0;
    const reasons: string[] = [];
    const deferrals = MAX_BACKOFFS + 2;
    await serve(
      (): QueueDecision | void => {
        calls += 1;
        if (calls <= deferrals) return { kind: 'back-off', reason: 'its endpoint has enough in flight', counts: false };
      },
      { onDeadLetter: (reason) => reasons.push(reason) },
    );
    await emit('{"n":4}');
    await until(() => (calls > deferrals ? true : undefined));
    await drained();
    expect(calls).toBe(deferrals + 1);
    expect(reasons).toEqual([]);
    expect(await transport.deadLetters()).toEqual([]);
  });

  it('brings a message of another routing key back to its own handler after a back-off and a retry', async () => {
    const delivered: string[] = [];
    const recovers: string[] = [];
    const server = await serve((body) => void delivered.push(body));
    server.addHandler(
      WEBHOOK_RECOVER_ROUTING_KEY,
      (body: string): Promise<QueueDecision> => {
        recovers.push(body);
        if (recovers.length === 1) return Promise.resolve({ kind: 'back-off', reason: 'database down', counts: false });
        if (recovers.length === 2) {
          return Promise.resolve({ kind: 'retry', content: 'again', delayMs: 10, scheduledDelayMs: RETRY_DELAY_MS });
        }
        return Promise.resolve({ kind: 'ack' });
      },
      true,
    );
    await lastValueFrom(
      transport.client.emit(WEBHOOK_RECOVER_ROUTING_KEY, { body: 'recover', type: 'test', messageId: 'recover' }),
      { defaultValue: undefined },
    );
    await handled(recovers, 3);
    await drained();
    expect(recovers).toEqual(['recover', 'recover', '"again"']);
    expect(delivered).toEqual([]);
  });

  it('shares 300 messages between two competing servers, each handled once', async () => {
    const seen: string[] = [];
    const handle = async (body: string) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      seen.push(body);
    };
    await serve(handle, { prefetch: 5 });
    await serve(handle, { prefetch: 5 });
    const bodies = Array.from({ length: 300 }, (_, index) => `{"n":${index}}`);
    await Promise.all(bodies.map(emit));
    await handled(seen, 300);
    await drained();
    expect(seen.sort()).toEqual([...bodies].sort());
  });

  it('on close, lets a running handler finish and carries out its decision before it returns', async () => {
    let release!: () => void;
    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    await serve(
      () =>
        new Promise<void>((done) => {
          release = done;
          markStarted();
        }),
    );
    await emit('{"n":3}');
    await started;
    const closed = servers.pop()!.close();
    setTimeout(() => release(), 200);
    await closed;
    expect(await transport.pending()).toBe(0);
  });
});

/** What only the Postgres transport has to prove: its wake-up, and that a dead letter's row stays dead. */
describe('the webhook queue on Postgres, its table', () => {
  let services: IsolatedServices;
  let transport: Awaited<ReturnType<typeof postgresTransport>>;
  let server: QueueServer | undefined;

  beforeAll(async () => {
    services = await isolatedServices('pgqueue');
    transport = await postgresTransport(services);
  });
  afterEach(async () => {
    await server?.close();
    await transport.reset();
  });
  afterAll(async () => {
    await transport?.close();
    await services?.drop();
  });

  const emit = (body: string) =>
    lastValueFrom(transport.client.emit(PATTERN, { body, type: 'test', messageId: body }), {
      defaultValue: undefined,
    });
  async function serve(handle: Handle, idlePollMs?: number): Promise<void> {
    server = new PostgresQueueServer({
      db: transport.db,
      databaseUrl: services.env.DATABASE_URL,
      prefetch: 10,
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
      leaseMs: 30_000,
      backOffMs: 50,
      idlePollMs,
    });
    server.addHandler(PATTERN, (body: string) => Promise.resolve(handle(body)), true);
    await new Promise<void>((resolve) => server!.listen(() => resolve()));
  }
  async function until(check: () => Promise<boolean> | boolean): Promise<void> {
    while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it('wakes a server at once on an enqueue, without a poll', async () => {
    const seen: string[] = [];
    // No poll comes within the test: only the NOTIFY of the enqueue can wake the server.
    await serve((body) => void seen.push(body), 3_600_000);
    await emit('{"n":1}');
    await until(() => seen.length === 1);
    expect(seen).toEqual(['{"n":1}']);
  });

  it('never claims a dead letter again, even when it is due before the next message', async () => {
    const seen: string[] = [];
    await serve((body) => {
      seen.push(body);
      return { kind: 'dead-letter', reason: 'not a delivery request' };
    });
    await emit('garbage');
    await until(async () => (await transport.deadLetters()).length === 1);
    // Its lease ended long ago, so only being dead keeps it back: due before the next message, it
    // would be claimed first (the server claims in visible_at order) if it could be handed out again.
    await transport.db.query(
      `UPDATE webhook_queue SET visible_at = now() - interval '1 minute' WHERE body = 'garbage'`,
    );
    await emit('next');
    await until(async () => (await transport.deadLetters()).length === 2);
    expect(seen).toEqual(['garbage', 'next']);
    expect(await transport.db.query('SELECT body, dead_reason, backoffs FROM webhook_queue ORDER BY id')).toEqual([
      { body: 'garbage', dead_reason: 'not a delivery request', backoffs: 0 },
      { body: 'next', dead_reason: 'not a delivery request', backoffs: 0 },
    ]);
  });
});
