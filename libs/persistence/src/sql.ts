import type { Writable } from 'node:stream';
import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { isTransactionAborted } from './pg-errors';

/**
 * Runs one parameterised statement and returns its rows. A `name` makes it a prepared statement, parsed
 * and planned once per connection: for hot statements of fixed text only (each name stays on every
 * connection that ran it). A transaction's Sql (inTransaction) may be called again before the statement
 * before has answered: the connection is pipelined, so the statements go out together and run in the
 * order they were called (await them with `together`).
 */
export type Sql = <T = Record<string, unknown>>(text: string, params?: unknown[], name?: string) => Promise<T[]>;

function poolOf(db: DataSource): Pool {
  return (db.driver as PostgresDriver).master as Pool;
}

/**
 * One statement on the data source's pool, returning its rows whatever the command (TypeORM's
 * `query()` shapes UPDATE results differently). Hot paths use it to skip a query runner.
 */
export async function sqlRows<T>(
  db: DataSource,
  text: string,
  params: unknown[] = [],
  /** A name makes it a prepared statement: Postgres parses and plans it once per connection. */
  name?: string,
): Promise<T[]> {
  const result = await poolOf(db).query(name ? { name, text, values: params } : { text, values: params });
  return result.rows as T[];
}

/** How long warmPool lets each statement take before it gives up on that connection. */
const WARM_UP_STATEMENT_TIMEOUT_MS = 5_000;

/** A named statement for warmPool: its text and input that reads and writes nothing (empty arrays, say). */
export interface WarmUpStatement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * Opens `connections` of the pool at once and prepares `statements` on each, before the work that
 * needs them starts. A pool opens its connections on demand, so a process that has just started
 * opens them in its first busy second, each on a new Postgres backend whose catalog caches are empty
 * and which parses and plans each named statement anew, while the batches waiting on them queue
 * (docs/performance.md). With the pool's `minConnections` they stay open when idle.
 */
export async function warmPool(db: DataSource, connections: number, statements: WarmUpStatement[]): Promise<void> {
  const pool = poolOf(db);
  const opened = await Promise.allSettled(Array.from({ length: connections }, () => pool.connect()));
  const clients = opened.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const failures = new Map<PoolClient, Error>();
  await Promise.all(
    clients.map(async (client) => {
      try {
        // Bounded: a statement held up by a lock (a migration's, say) must not hold the start up.
        await client.query(`SET statement_timeout = ${WARM_UP_STATEMENT_TIMEOUT_MS}`);
        for (const statement of statements) await client.query(statement);
        await client.query('RESET statement_timeout');
      } catch (error) {
        failures.set(client, error instanceof Error ? error : new Error(String(error)));
      }
    }),
  );
  // A connection whose statement failed is dropped rather than kept.
  for (const client of clients) client.release(failures.get(client));
  const notOpened = opened.find((outcome) => outcome.status === 'rejected');
  if (notOpened) throw notOpened.reason instanceof Error ? notOpened.reason : new Error(String(notOpened.reason));
  const [failed] = failures.values();
  if (failed) throw failed;
}

/**
 * What a transaction's work may return when its last statement needs no answer before COMMIT: it is
 * sent with the COMMIT, one round trip for both. Sent by inTransaction after `work` has returned, so no
 * statement of the work can follow it; if it fails, the COMMIT finds the transaction aborted and
 * `inTransaction` rejects with the statement's error.
 */
export class LastStatement<R> {
  constructor(
    readonly result: R,
    readonly text: string,
    readonly params: unknown[] = [],
    /** A name makes it a prepared statement, as `Sql`'s does. */
    readonly name?: string,
  ) {}
}

/**
 * A batch statement's rows as one JSON parameter, read with `json_to_recordset($n::json) AS x (id text,
 * "camelCase" text, …)`: the keys are the rows' own. pg sends an array parameter (the columns of
 * `unnest($1::text[], …)`) as an array literal it builds in JavaScript, escaping each string with two
 * regular expressions and each date by hand; for the JSON bodies of events and idempotency keys that
 * was an eighth of what the API allocated under the refund load (docs/performance.md). JSON.stringify
 * escapes natively, into one string.
 */
export function jsonRecords(rows: readonly object[]): string {
  return JSON.stringify(rows);
}

/** Runs `work` in one transaction on one pooled connection: committed if it resolves, else rolled back. */
export async function inTransaction<R>(db: DataSource, work: (sql: Sql) => Promise<R | LastStatement<R>>): Promise<R> {
  const client: PoolClient = await poolOf(db).connect();
  let broken: Error | undefined;
  // A checked-out client has no pool listener: a connection lost mid-transaction (a database
  // restart) would be an unhandled 'error' event and end the process. The running query fails with
  // the same error, so the transaction rolls back; the client is destroyed on release.
  const onError = (error: Error) => (broken = error);
  client.on('error', onError);
  // BEGIN goes out with the first statement (the connection is pipelined): a round trip fewer. It can
  // fail only with its connection, and then so does every statement sent after it; each statement
  // waits for it as well, so none answers as if in a transaction that did not begin.
  const send = writesCoalesced(client);
  const begun = send(() => client.query('BEGIN'));
  // Awaited with each statement and before COMMIT; this keeps a BEGIN that fails while `work` has not
  // sent anything yet from being an unhandled rejection.
  begun.catch(() => undefined);
  const sql: Sql = async <T>(text: string, params: unknown[] = [], name?: string) => {
    const [, result] = await together([
      begun,
      send(() => client.query(name ? { name, text, values: params } : { text, values: params })),
    ]);
    return result.rows as T[];
  };
  try {
    const outcome = await work(sql);
    await begun;
    if (!(outcome instanceof LastStatement)) {
      await client.query('COMMIT');
      return outcome;
    }
    await together([
      send(() =>
        client.query(
          outcome.name
            ? { name: outcome.name, text: outcome.text, values: outcome.params }
            : { text: outcome.text, values: outcome.params },
        ),
      ),
      send(() => client.query('COMMIT')),
    ]);
    return outcome.result;
  } catch (error) {
    // A connection that cannot even roll back is destroyed rather than returned to the pool.
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    });
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

/**
 * A transaction's statements sent in one go leave in one socket write: each write wakes the
 * connection's backend, which on a busy machine takes the writer's core at once (docs/performance.md).
 * The first statement corks the connection's socket; a microtask queued behind the code that sends
 * it uncorks it, so no statement waits on more than that code.
 */
function writesCoalesced(client: PoolClient): <T>(query: () => Promise<T>) => Promise<T> {
  const socket = (client as unknown as { connection: { stream: Writable } }).connection.stream;
  let corked = false;
  return (query) => {
    if (!corked) {
      corked = true;
      socket.cork();
      queueMicrotask(() => {
        corked = false;
        socket.uncork();
      });
    }
    return query();
  };
}

/**
 * The results of statements sent together on one transaction's Sql, each of which waits on none of the
 * others' answers: one round trip for all of them instead of one each. When any fails, the error is the
 * one that made the transaction fail, not the "transaction is aborted" of the statements sent after it,
 * so that a caller can tell a row's error (isRowError) as it would of a statement sent alone.
 */
export async function together<T extends readonly unknown[] | []>(
  statements: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(statements);
  const errors = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
  if (errors.length > 0) throw errors.find((error) => !isTransactionAborted(error)) ?? errors[0];
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
