// The latency floor's relay (bench/latency-floor.mjs), a process of its own as the API's outbox relay
// is: only what any outbox relay must do. Woken by LISTEN (and a poll, should a notification be
// missed), a pass locks unpublished rows (SKIP LOCKED), publishes each with a broker confirm and, once
// all are confirmed, marks them published in the same transaction.
import amqp from 'amqplib';
import pg from 'pg';

const { DATABASE_URL, AMQP_URL, FLOOR_QUEUE, FLOOR_CHANNEL } = process.env;
const BATCH_SIZE = 200; // the API relay's
const POLL_INTERVAL_MS = 1_000; // the API relay's fallback

const db = new pg.Client({ connectionString: DATABASE_URL });
const listener = new pg.Client({ connectionString: DATABASE_URL });
await Promise.all([db.connect(), listener.connect()]);
const connection = await amqp.connect(AMQP_URL);
const channel = await connection.createConfirmChannel();

/** Resolves once the broker has confirmed the message. */
const publish = (row) =>
  new Promise((resolve, reject) =>
    channel.sendToQueue(
      FLOOR_QUEUE,
      Buffer.from(row.payload),
      { persistent: true, contentType: 'application/json', messageId: row.event_id },
      (error) => (error ? reject(error) : resolve()),
    ),
  );

async function pass() {
  await db.query('BEGIN');
  try {
    const { rows } = await db.query(
      `SELECT id, event_id, payload FROM latency_floor_outbox WHERE published_at IS NULL
       ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [BATCH_SIZE],
    );
    if (rows.length > 0) {
      await Promise.all(rows.map(publish));
      // now(): the pass's start, as the API relay's published_at is.
      await db.query(`UPDATE latency_floor_outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [
        rows.map((row) => row.id),
      ]);
    }
    await db.query('COMMIT');
    return rows.length;
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
}

let running;
let wakeAgain = false;
let stopped = false;

/** Starts a pass, or asks the running one to go round again (as the API relay does). */
function wake() {
  if (stopped) return;
  if (running) {
    wakeAgain = true;
    return;
  }
  running = (async () => {
    while (!stopped && (await pass()) > 0) {
      // keep going while there is work
    }
  })()
    .catch((error) => console.error(`[latency-floor relay] pass failed, will retry: ${error}`))
    .finally(() => {
      running = undefined;
      if (wakeAgain) {
        wakeAgain = false;
        wake();
      }
    });
}

listener.on('notification', wake);
await listener.query(`LISTEN ${FLOOR_CHANNEL}`);
const poll = setInterval(wake, POLL_INTERVAL_MS);

process.once('SIGTERM', async () => {
  stopped = true;
  clearInterval(poll);
  await running;
  await Promise.all([db.end(), listener.end(), connection.close()]);
  process.exit(0);
});
process.send({ ready: true });
