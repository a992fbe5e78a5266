import { setTimeout } from 'node:timers/promises';
import type { ClientBase } from 'pg';
import type { DataSource, DataSourceOptions, EntitySchema, QueryRunner } from 'typeorm';
// Relative: this also runs from jest's global setup, where the @payhook/* paths are not mapped.
import { startupProgress } from '../../config/src/startup-progress';
import { connectionOptions } from './database-client';
import { MIGRATIONS } from './migrations';

export interface DataSourceConfig {
  url: string;
  /** Entity classes of the app that opens the connection. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity classes
  entities: (Function | EntitySchema)[];
  poolSize?: number;
  /** Connections kept open while idle (opened on demand, or at once by warmPool); none by default. */
  minConnections?: number;
  applicationName: string;
  /** KEYED_PLAN_SETTINGS for every session of the pool (the dispatcher's). */
  keyedReadsOnly?: boolean;
}

/**
 * For statements that all read by a key, batch after batch: each named statement is planned once per
 * connection (a generic plan), not again for each call, which Postgres otherwise did for most (the
 * dispatcher's attempt record took longer to plan than to run), and with sequential scans off, so that
 * a plan made while a table was small (a fresh database) probes the key instead of scanning the table
 * whole for every call after as it grows (docs/performance.md). And without JIT: with scans off, a plan
 * that can only scan is costed past jit_above_cost, and would be compiled on every call.
 */
export const KEYED_PLAN_SETTINGS: Readonly<Record<string, string>> = {
  plan_cache_mode: 'force_generic_plan',
  enable_seqscan: 'off',
  jit: 'off',
};

/** KEYED_PLAN_SETTINGS for the transaction it runs in (the ledger's). */
export const KEYED_PLANS_FOR_TRANSACTION = `SELECT ${Object.entries(KEYED_PLAN_SETTINGS)
  .map(([name, value]) => `set_config('${name}', '${value}', true)`)
  .join(', ')}`;

/** One place that decides how the apps talk to Postgres: explicit migrations, never synchronize. */
export function dataSourceOptions(config: DataSourceConfig): DataSourceOptions {
  // With a list of hosts, the pool's clients find the primary themselves (database-client.ts).
  const { url, Client } = connectionOptions(config.url);
  return {
    type: 'postgres',
    url,
    entities: config.entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    applicationName: config.applicationName,
    extra: {
      max: config.poolSize ?? 10,
      min: config.minConnections ?? 0,
      // A Postgres that does not answer fails a request in bounded time (503), instead of holding it.
      connectionTimeoutMillis: 10_000,
      onConnect: listenForLostConnection,
      // A transaction's statements that wait on none of each other's answers go out together (sql.ts,
      // together): one round trip, not one each. Statements awaited one by one run as before.
      pipeline: true,
      ...(config.keyedReadsOnly && {
        options: Object.entries(KEYED_PLAN_SETTINGS)
          .map(([name, value]) => `-c ${name}=${value}`)
          .join(' '),
      }),
      ...(Client && { Client }),
    },
  };
}

/**
 * The pool listens for a lost connection only while a client is idle in it, and its holder only while
 * a statement runs: a client checked out and between statements when the server ends it (a restart,
 * a failover, pg_terminate_backend) would emit an unheard 'error' and end the process. This listener
 * stays for the client's life; the client is then unusable, its holder's next statement fails, and
 * the pool drops it on release.
 */
function listenForLostConnection(client: ClientBase): void {
  client.on('error', () => undefined);
}

/** Arbitrary but fixed: every payhook process that migrates takes this advisory lock first. */
const MIGRATION_LOCK_ID = 0x70617968;
/** How long a process waiting for another's migrations sleeps between two tries of the lock. */
const MIGRATION_LOCK_RETRY_MS = 250;

/**
 * Runs pending migrations once, even when several API and dispatcher instances start together:
 * one takes the advisory lock, the others wait for it and then find nothing left to run.
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const { applicationName } = dataSource.options as { applicationName?: string };
    await takeMigrationLock(runner, applicationName ?? 'payhook');
    startupProgress.set('running migrations');
    // Each migration in its own transaction, unless it builds indexes CONCURRENTLY (transaction = false).
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * Waits for the migration lock between statements, never inside one: a statement waiting in
 * pg_advisory_lock holds a snapshot, and CREATE INDEX CONCURRENTLY in the holder's migration waits
 * for every older snapshot to end. Both would wait forever, and PostgreSQL does not see a deadlock.
 */
async function takeMigrationLock(runner: QueryRunner, applicationName: string): Promise<void> {
  let announced = false;
  for (;;) {
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_ID])) as {
      locked: boolean;
    }[];
    if (locked) return;
    if (!announced) {
      announced = true;
      startupProgress.announce(applicationName, `waiting for migrations run by ${await migrationLockHolder(runner)}`);
    }
    await setTimeout(MIGRATION_LOCK_RETRY_MS);
  }
}

/** Who holds the migration lock in this database, e.g. "payhook-webhook-dispatcher (pid 123)". */
async function migrationLockHolder(runner: QueryRunner): Promise<string> {
  // A bigint advisory key is classid (high 32 bits) and objid (low 32 bits), with objsubid 1.
  const [holder] = (await runner.query(
    `SELECT activity.application_name, activity.pid
       FROM pg_locks lock
       JOIN pg_stat_activity activity ON activity.pid = lock.pid
      WHERE lock.locktype = 'advisory' AND lock.granted
        AND lock.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND lock.classid = 0 AND lock.objid = $1 AND lock.objsubid = 1`,
    [MIGRATION_LOCK_ID],
  )) as { application_name: string; pid: number }[];
  if (!holder) return 'another process';
  return `${holder.application_name || 'another process'} (pid ${holder.pid})`;
}
