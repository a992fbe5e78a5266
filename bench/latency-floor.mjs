// The latency floor: the least completion → webhook can take on this machine with these services,
// measured in the same run as the completion → webhook row and the same way (receiver arrival less
// the body's data.completedAt). A minimal pipeline at the same rate for the same seconds: a row
// inserted in its own transaction, whose trigger NOTIFYs → a relay process LISTENing publishes it
// with a confirm to a quorum queue and marks it published → a consumer process (the dispatcher's
// prefetch and requests in flight per endpoint) signs it, POSTs it with undici to a receiver like the
// product's, records the attempt and only then acks. No step the product must take to deliver an event
// is skipped, and none is batched that it does not batch.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import amqp from 'amqplib';
import pg from 'pg';
import { sleep, stopApp } from './harness.mjs';
import { LATENCY_RATE, LATENCY_SECONDS, LATENCY_WARM_UP_SECONDS, log, receivedLatency } from './measure.mjs';
import { SAMPLE_EVERY, epochMs, stagesOf } from './latency-stages.mjs';

const NOTIFY_CHANNEL = 'latency_floor';
const SIGNING_SECRET = `whsec_${randomBytes(24).toString('base64url')}`;
/** Connections the rows are inserted over, as many as the API's pool. */
const INSERT_CONNECTIONS = 10;

const TABLES = `
  CREATE TABLE latency_floor_outbox (
    id bigserial PRIMARY KEY,
    event_id text NOT NULL,
    payload text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz
  );
  CREATE INDEX latency_floor_unpublished_idx ON latency_floor_outbox (id) WHERE published_at IS NULL;
  CREATE FUNCTION latency_floor_notify() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('${NOTIFY_CHANNEL}', '');
    RETURN NULL;
  END $$;
  CREATE TRIGGER latency_floor_notify AFTER INSERT ON latency_floor_outbox
    FOR EACH STATEMENT EXECUTE FUNCTION latency_floor_notify();
  CREATE TABLE latency_floor_attempts (
    id bigserial PRIMARY KEY,
    event_id text NOT NULL,
    started_at timestamptz NOT NULL,
    duration_ms integer NOT NULL,
    response_status integer,
    response_body text,
    recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
  );`;
const DROP_TABLES = `
  DROP TABLE IF EXISTS latency_floor_outbox, latency_floor_attempts;
  DROP FUNCTION IF EXISTS latency_floor_notify();`;

async function onDatabase(databaseUrl, work) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

/** A fresh durable quorum queue (deleted first: no message of an earlier run is left in it). */
async function onQueue(amqpUrl, queue, work) {
  const connection = await amqp.connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    await work(channel);
  } finally {
    await connection.close();
  }
}

const freshQueue = (amqpUrl, queue) =>
  onQueue(amqpUrl, queue, async (channel) => {
    await channel.deleteQueue(queue);
    await channel.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  });

/** Forks a stage of the pipeline and waits until it is ready. */
async function startStage(script, env) {
  const child = fork(join(import.meta.dirname, script), { env: { ...process.env, ...env } });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready`)));
  });
  return child;
}

/** Inserts `total` events at `rate` per second, each in its own transaction, its completedAt taken just before. */
async function insertEvents(databaseUrl, rate, total) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: INSERT_CONNECTIONS });
  const tag = randomBytes(4).toString('hex');
  const insert = async (n) => {
    const id = `evt_floor_${tag}_${n}`;
    const completedAt = new Date().toISOString();
    const body = JSON.stringify({
      id,
      type: 'payment.completed',
      createdAt: completedAt,
      data: { paymentId: `pay_floor_${tag}_${n}`, orderId: `floor-${n}`, amount: 15000, currency: 'KRW', completedAt },
    });
    await pool.query('INSERT INTO latency_floor_outbox (event_id, payload) VALUES ($1, $2)', [id, body]);
  };
  try {
    const started = Date.now();
    const inserts = [];
    for (let n = 0; n < total; n++) {
      const wait = started + (n * 1000) / rate - Date.now();
      if (wait > 0) await sleep(wait);
      inserts.push(insert(n));
    }
    await Promise.all(inserts);
  } finally {
    await pool.end();
  }
}

/** The floor's stage timestamps of every SAMPLE_EVERY-th event, as completionStages reads the product's. */
async function floorStages(db, receiver) {
  const { rows } = await db.query(
    `SELECT o.event_id, ${epochMs(`(o.payload::json->'data'->>'completedAt')::timestamptz`)} AS completed,
            ${epochMs('o.created_at')} AS written, ${epochMs('o.published_at')} AS picked_up,
            ${epochMs('a.started_at')} AS request_started, ${epochMs('a.started_at')} + a.duration_ms AS responded,
            ${epochMs('a.recorded_at')} AS recorded
     FROM latency_floor_outbox o
     LEFT JOIN LATERAL (SELECT * FROM latency_floor_attempts a WHERE a.event_id = o.event_id
                        ORDER BY a.started_at LIMIT 1) a ON true
     WHERE o.id % $1 = 1`,
    [SAMPLE_EVERY],
  );
  return stagesOf(rows, await receiver.arrivalsByEvent());
}

/**
 * The floor at `rate` for `seconds`, through `databaseUrl`, a quorum queue `queue` at `amqpUrl` and
 * `receiver` (one of its own): the figures completionLatency reports, and the stages of a sample.
 */
export async function latencyFloor({
  databaseUrl,
  amqpUrl,
  receiver,
  queue = 'latency-floor',
  rate = LATENCY_RATE,
  seconds = LATENCY_SECONDS,
}) {
  const total = rate * seconds;
  await receiver.reset();
  await onDatabase(databaseUrl, (db) => db.query(`${DROP_TABLES}${TABLES}`));
  await freshQueue(amqpUrl, queue);
  const env = {
    DATABASE_URL: databaseUrl,
    AMQP_URL: amqpUrl,
    FLOOR_QUEUE: queue,
    FLOOR_CHANNEL: NOTIFY_CHANNEL,
    FLOOR_RECEIVER_URL: receiver.url,
    FLOOR_SECRET: SIGNING_SECRET,
  };
  const stages = [];
  try {
    stages.push(await startStage('latency-floor-relay.mjs', env));
    stages.push(await startStage('latency-floor-consumer.mjs', env));
    log(`latency floor: ${LATENCY_WARM_UP_SECONDS} s warm-up, then ${rate}/s for ${seconds} s`);
    if (LATENCY_WARM_UP_SECONDS > 0) {
      await insertEvents(databaseUrl, rate, rate * LATENCY_WARM_UP_SECONDS);
      await receivedLatency(receiver, rate * LATENCY_WARM_UP_SECONDS);
      await receiver.reset();
      await onDatabase(databaseUrl, (db) =>
        db.query('TRUNCATE latency_floor_outbox, latency_floor_attempts RESTART IDENTITY'),
      );
    }
    await insertEvents(databaseUrl, rate, total);
    const latency = await receivedLatency(receiver, total);
    const samples = await onDatabase(databaseUrl, (db) => floorStages(db, receiver));
    return { ...latency, samples };
  } finally {
    await Promise.all(stages.map((stage) => stopApp(stage)));
    await onDatabase(databaseUrl, (db) => db.query(DROP_TABLES));
    await onQueue(amqpUrl, queue, (channel) => channel.deleteQueue(queue));
  }
}
