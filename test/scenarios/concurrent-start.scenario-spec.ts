import type { INestApplication } from '@nestjs/common';
import { loadEnv } from '@payhook/config';
import { assertTestDatabase, databaseName, openMigratedDataSource, withDatabase } from '@payhook/persistence';
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createPaymentsApi } from '../../apps/payments-api/src/app.setup';
import { PaymentsApiEnv } from '../../apps/payments-api/src/platform/config/payments-api.env';
import { createWebhookDispatcher } from '../../apps/webhook-dispatcher/src/app.setup';
import { WebhookDispatcherEnv } from '../../apps/webhook-dispatcher/src/config/webhook-dispatcher.env';
import { dropDatabase } from '../support/drop-database';
import { specDatabaseUrl } from '../support/spec-database';
import { pollUntil } from '../support/poll-until';
import { testAmqpNamespace, testAmqpUrl, testWebhookQueue } from '../support/test-env';
import { timeFor } from '../support/time-budget';

const ROOT = resolve(__dirname, '../..');
/** The advisory lock key of libs/persistence/src/data-source.ts. */
const MIGRATION_LOCK_ID = 0x70617968;
/** A start on a busy 2-core machine: three Node processes booting Nest and migrating at once. */
const START_TIMEOUT_MS = timeFor({ process: 4 });
/** One in-process round: a fresh database migrated by the first of three apps booting at once. */
const ROUND_MS = timeFor({ database: 1, app: 3 });

/** Rounds of three starts at once; most in this process, since 60 booting processes take minutes on 2 cores. */
const ROUNDS = 20;
const PROCESS_ROUNDS = 3;

/**
 * Issue 24: `npm start` on a fresh database hung forever when one app waited for the migration lock
 * inside `SELECT pg_advisory_lock(…)` (a statement, so a snapshot) while the other built an index
 * CONCURRENTLY (which waits for every older snapshot). Each round is a new, empty database and the
 * API and two dispatchers starting at the same instant. In ROUNDS − PROCESS_ROUNDS rounds the three
 * apps boot here (createPaymentsApi, createWebhookDispatcher: Nest, the migrating data source, the
 * broker) and answer /health; their lock waits meet closely, so the old code hung. The other rounds
 * spawn the real entry points as production starts them, to /health.
 */
describe('starting the API and two dispatchers at once on a fresh database', () => {
  /** What the starts in this process print straight to stderr (the waiting line). */
  let printed: string[];
  beforeEach(() => {
    printed = [];
    jest.spyOn(console, 'warn').mockImplementation((line: string) => void printed.push(line));
  });
  afterEach(() => jest.restoreAllMocks());

  it(
    'boots the API and two dispatchers at once and all answer /health, in every round',
    async () => {
      for (let round = 1; round <= ROUNDS - PROCESS_ROUNDS; round++) {
        const database = await freshDatabase(`boot${round}`);
        const apps: INestApplication[] = [];
        try {
          const shared = {
            DATABASE_URL: database.url,
            AMQP_URL: testAmqpUrl(),
            // The run's vhost, a namespace of the round: no queue or message of another round or spec.
            AMQP_NAMESPACE: `${testAmqpNamespace()}_concurrent_start_${round}`,
            WEBHOOK_QUEUE: testWebhookQueue(),
            NODE_ENV: 'test',
            LOG_LEVEL: 'error',
          };
          const boot = async (create: () => Promise<INestApplication>) => {
            const app = await create();
            apps.push(app);
            await app.listen(0, '127.0.0.1');
            return app;
          };
          // One Promise.all: the three race for the migration lock as in `npm start` or a deploy.
          // allSettled, so that a failed boot does not leave the others booting past the cleanup.
          const settled = await Promise.allSettled([
            boot(() => createPaymentsApi(loadEnv(PaymentsApiEnv, shared), { logger: ['error'] })),
            boot(() => createWebhookDispatcher(loadEnv(WebhookDispatcherEnv, shared), { logger: ['error'] })),
            boot(() => createWebhookDispatcher(loadEnv(WebhookDispatcherEnv, shared), { logger: ['error'] })),
          ]);
          const booted = settled.map((outcome) => {
            if (outcome.status === 'rejected') throw outcome.reason;
            return outcome.value;
          });
          const statuses = await Promise.all(
            booted.map(async (app) => {
              const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
              return (await fetch(`http://127.0.0.1:${port}/health`)).status;
            }),
          );
          expect({ round, statuses }).toEqual({ round, statuses: [200, 200, 200] });
          const dataSource = booted[0].get(DataSource);
          const [{ count }] = await dataSource.query<{ count: string }[]>('SELECT count(*) FROM schema_migrations');
          expect(Number(count)).toBe(dataSource.migrations.length);
        } finally {
          await Promise.all(apps.map((app) => app.close()));
          await database.drop();
        }
      }
      // Those who waited named the one that held the lock (how many waited depends on the timing; a
      // holder that let go between the try and the lookup is "another process").
      for (const line of printed) {
        expect(line).toMatch(
          /^payhook-(payments-api|webhook-dispatcher): waiting for migrations run by (payhook-(payments-api|webhook-dispatcher) \(pid \d+\)|another process)$/,
        );
      }
    },
    ROUND_MS * (ROUNDS - PROCESS_ROUNDS),
  );

  it('lets the holder of the migration lock build an index CONCURRENTLY while another start waits', async () => {
    const database = await freshDatabase('concurrently');
    // As runMigrations: one connection holds the lock, another runs the migrations.
    const holder = new Client({ connectionString: database.url, application_name: 'payhook-tests-lock-holder' });
    const migrator = new Client({ connectionString: database.url, application_name: 'payhook-tests-lock-holder' });
    await Promise.all([holder.connect(), migrator.connect()]);
    let waiter: Promise<DataSource> | undefined;
    try {
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      waiter = openMigratedDataSource({ url: database.url, entities: [], applicationName: 'payhook-payments-api' });
      await pollUntil(
        async () =>
          (
            await holder.query(
              "SELECT 1 FROM pg_stat_activity WHERE application_name = 'payhook-payments-api' AND query LIKE '%advisory_lock%'",
            )
          ).rowCount,
        (found) => (found ?? 0) > 0,
        { timeoutMs: 60_000 },
      );
      // What a migration of the holder may do meanwhile. It waits for every older snapshot, so a start
      // that waits for the lock inside a statement would block it for good (here: until the timeout).
      await migrator.query('CREATE TABLE lock_probe (id int)');
      await migrator.query("SET statement_timeout = '20s'");
      await migrator.query('CREATE INDEX CONCURRENTLY lock_probe_idx ON lock_probe (id)');

      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      const opened = await waiter;
      expect(printed).toEqual([
        `payhook-payments-api: waiting for migrations run by payhook-tests-lock-holder (pid ${holderPid})`,
      ]);
      const [{ count }] = await opened.query<{ count: string }[]>('SELECT count(*) FROM schema_migrations');
      expect(Number(count)).toBe(opened.migrations.length);
    } finally {
      await Promise.all([holder.end(), migrator.end()]);
      await waiter?.then((opened) => opened.destroy()).catch(() => undefined);
      await database.drop();
    }
  }, 120_000);

  describe('as real processes', () => {
    // The run's one build (the scenarios' setup): nothing rebuilds or empties dist/ while these processes load it.
    const entry = (app: string) => join(ROOT, 'dist/apps', app, 'src/main.js');
    const running = new Set<StartedApp>();

    afterEach(async () => {
      await Promise.all([...running].map((app) => app.stop()));
      running.clear();
    }, 60_000);

    /** Port 0: the app listens on a port the OS picks, which its "listening" line names (no probe-then-use race). */
    function start(app: 'payments-api' | 'webhook-dispatcher', databaseUrl: string): StartedApp {
      const started = new StartedApp(
        spawn(process.execPath, ['--enable-source-maps', entry(app)], {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'test',
            DATABASE_URL: databaseUrl,
            AMQP_URL: testAmqpUrl(),
            AMQP_NAMESPACE: `${testAmqpNamespace()}_concurrent_start`,
            // Info: the "listening" line is where the port is read.
            LOG_LEVEL: 'info',
            ...(app === 'payments-api' ? { PORT: '0' } : { DISPATCHER_PORT: '0' }),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      running.add(started);
      return started;
    }

    it('become healthy, all three, in every round', async () => {
      for (let round = 1; round <= PROCESS_ROUNDS; round++) {
        const database = await freshDatabase(`start${round}`);
        try {
          // Spawned in one go: the three race for the migration lock as in `npm start` or a deploy.
          const apps = [
            start('payments-api', database.url),
            start('webhook-dispatcher', database.url),
            start('webhook-dispatcher', database.url),
          ];
          await Promise.all(apps.map((app) => app.healthy(START_TIMEOUT_MS, `round ${round}`)));
          await Promise.all(apps.map((app) => app.stop()));
        } finally {
          await database.drop();
        }
      }
    }, 900_000);

    it('say whose migrations they wait for, at once and again after 30 s', async () => {
      const database = await freshDatabase('waiting');
      const holder = new Client({ connectionString: database.url, application_name: 'payhook-tests-lock-holder' });
      await holder.connect();
      try {
        const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        const api = start('payments-api', database.url);

        const waiting = `waiting for migrations run by payhook-tests-lock-holder (pid ${holderPid})`;
        await api.printed(`payhook-payments-api: ${waiting}`, START_TIMEOUT_MS);
        // Nest holds back its own lines during the start: the 30 s report says where it is.
        await api.printed(`payhook-payments-api: start not finished after 30 s: ${waiting}`, 90_000);

        await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
        await api.healthy(START_TIMEOUT_MS, 'after the lock was released');
        expect(api.output.split(`payhook-payments-api: ${waiting}`)).toHaveLength(2);
      } finally {
        await holder.end();
        await Promise.all([...running].map((app) => app.stop()));
        await database.drop();
      }
    }, 300_000);
  });
});

/** One spawned app: its output, its health, and a stop that waits for it to exit. */
class StartedApp {
  output = '';

  constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString('utf8')));
  }

  /** The port of the app's "… listening: …, health http://host:port/health" line, once printed. */
  private get port(): number | undefined {
    const listening = /listening: .*health http:\/\/\S+:(\d+)\/health/.exec(this.output);
    return listening ? Number(listening[1]) : undefined;
  }

  async healthy(timeoutMs: number, context: string): Promise<void> {
    await pollUntil(
      async () => {
        if (this.child.exitCode !== null)
          throw new Error(`${context}: exited with ${this.child.exitCode}:\n${this.output}`);
        const port = this.port;
        if (port === undefined) return 0;
        return fetch(`http://127.0.0.1:${port}/health`).then(
          (response) => response.status,
          () => 0,
        );
      },
      (status) => status === 200,
      { timeoutMs, intervalMs: 100 },
    ).catch((error: unknown) => {
      throw new Error(`${context}: ${String(error)}\noutput:\n${this.output}`);
    });
  }

  async printed(text: string, timeoutMs: number): Promise<void> {
    await pollUntil(
      () => Promise.resolve(this.output),
      (output) => output.includes(text),
      { timeoutMs, intervalMs: 100 },
    ).catch(() => {
      throw new Error(`never printed "${text}"; output:\n${this.output}`);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((done) => this.child.once('exit', done));
    // SIGKILL: a start stuck in a lock would not stop on SIGTERM, and nothing here needs a drain.
    this.child.kill('SIGKILL');
    await exited;
  }
}

/** An empty database of this spec's own inside the run (its name ends in _test), dropped after. */
async function freshDatabase(label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const url = specDatabaseUrl(label);
  assertTestDatabase(url);
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${databaseName(url)}"`);
  } finally {
    await admin.end();
  }
  return {
    url,
    drop: () => dropDatabase(url),
  };
}
