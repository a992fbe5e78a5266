import { dataSourceOptions } from '@payhook/persistence';
import { lastValueFrom } from 'rxjs';
import { DataSource } from 'typeorm';
import { isolatedServices, type IsolatedServices } from '../../../test/support/isolated-services';
import { PostgresQueueClient } from './postgres-queue.client';
import { PostgresQueueServer } from './postgres-queue.server';
import { MAX_BACKOFFS, type QueueDecision } from './queue-handling';

const PATTERN = 'webhook.deliver';

/**
 * The Postgres transport of local mode (ADR 0009) against a real database: what a handler returns
 * is carried out exactly as on RabbitMQ, waits live in the table, competing servers share the work.
 */
describe('PostgresQueueServer and PostgresQueueClient', () => {
  let services: IsolatedServices;
  let db: DataSource;
  let client: PostgresQueueClient;
  const servers: PostgresQueueServer[] = [];

  beforeAll(async () => {
    services = await isolatedServices('pgqueue');
    db = await new DataSource(
      dataSourceOptions({ url: services.env.DATABASE_URL, entities: [], applicationName: 'payhook-queue-spec' }),
    ).initialize();
    client = new PostgresQueueClient(db);
    await client.connect();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await db.query('DELETE FROM webhook_queue');
  });
  afterAll(async () => {
    await db.destroy();
    await services.drop();
  });

  /** A server whose handler is `handle`, listening until the test ends. */
  async function serve(
    handle: (body: string) => Promise<QueueDecision | void> | QueueDecision | void,
    options: { prefetch?: number; idlePollMs?: number; onDeadLetter?: (reason: string) => void } = {},
  ): Promise<PostgresQueueServer> {
    const server = new PostgresQueueServer({
      db,
      databaseUrl: services.env.DATABASE_URL,
      prefetch: options.prefetch ?? 10,
      drainTimeoutMs: 5_000,
      leaseMs: 30_000,
      backOffMs: 50,
      idlePollMs: options.idlePollMs,
      onDeadLetter: options.onDeadLetter,
    });
    server.addHandler(PATTERN, (body: string) => Promise.resolve(handle(body)), true);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(() => resolve()));
    return server;
  }

  const emit = (body: string) =>
    lastValueFrom(client.emit(PATTERN, { body, type: 'test', messageId: body }), { defaultValue: undefined });

  const rows = () =>
    db.query<{ body: string; dead_reason: string | null; backoffs: number }[]>(
      'SELECT body, dead_reason, backoffs FROM webhook_queue ORDER BY id',
    );

  async function until<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('hands an emitted message to the handler at once and deletes it when acknowledged', async () => {
    const seen: string[] = [];
    // No poll comes within the test: only the NOTIFY of the enqueue can wake the server.
    await serve((body) => void seen.push(body), { idlePollMs: 3_600_000 });
    await emit('{"n":1}');
    await until(() => (seen.length === 1 ? true : undefined));
    await until(async () => ((await rows()).length === 0 ? true : undefined));
    expect(seen).toEqual(['{"n":1}']);
  });

  it('keeps a retry in the table, invisible until its delay has passed, with the content the handler gave', async () => {
    const seen: { body: string; at: number }[] = [];
    await serve((body) => {
      seen.push({ body, at: Date.now() });
      if (seen.length === 1) return { kind: 'retry', content: { retryStep: 1 }, delayMs: 400, scheduledDelayMs: 400 };
    });
    await emit('{"retryStep":0}');
    await until(() => (seen.length === 2 ? true : undefined));
    expect(seen.map((one) => one.body)).toEqual(['{"retryStep":0}', '{"retryStep":1}']);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(350);
  });

  it('keeps a dead-lettered message with its reason and never hands it out again', async () => {
    const seen: string[] = [];
    const deadLetters: string[] = [];
    await serve(
      (body) => {
        seen.push(body);
        return { kind: 'dead-letter', reason: 'not a delivery request' };
      },
      { onDeadLetter: (reason) => deadLetters.push(reason) },
    );
    await emit('garbage');
    await until(() => (deadLetters.length === 1 ? true : undefined));
    // Its lease ended long ago, so only being dead keeps it back: due before the next message, it
    // would be claimed first (the server claims in visible_at order) if it could be handed out again.
    await db.query(`UPDATE webhook_queue SET visible_at = now() - interval '1 minute' WHERE body = 'garbage'`);
    await emit('next');
    await until(() => (deadLetters.length === 2 ? true : undefined));
    expect(seen).toEqual(['garbage', 'next']);
    expect(await rows()).toEqual([
      { body: 'garbage', dead_reason: 'not a delivery request', backoffs: 0 },
      { body: 'next', dead_reason: 'not a delivery request', backoffs: 0 },
    ]);
  });

  it('backs off a handler that throws, and dead-letters it after MAX_BACKOFFS counted failures', async () => {
    let calls = 0;
    await serve(() => {
      calls += 1;
      throw new Error('database said no');
    });
    await emit('{"n":2}');
    const [dead] = await until(async () => {
      const found = (await rows()).filter((row) => row.dead_reason !== null);
      return found.length > 0 ? found : undefined;
    });
    expect(calls).toBe(MAX_BACKOFFS + 1);
    expect(dead.dead_reason).toBe(`failed ${MAX_BACKOFFS} times: database said no`);
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
    await until(() => (seen.length >= 300 ? true : undefined), 30_000);
    await until(async () => ((await rows()).length === 0 ? true : undefined));
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
    expect(await rows()).toEqual([]);
  });
});
