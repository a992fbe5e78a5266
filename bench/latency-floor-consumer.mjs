// The latency floor's consumer (bench/latency-floor.mjs), a process of its own as the dispatcher is:
// with the dispatcher's prefetch and its limit of requests in flight per endpoint, each message is
// signed (HMAC-SHA256 of the timestamp and body, the Service-Signature format), POSTed with undici, its
// attempt recorded (an INSERT of its own) and only then acknowledged.
import amqp from 'amqplib';
import { createHmac } from 'node:crypto';
import pg from 'pg';
import { Agent } from 'undici';

const { DATABASE_URL, AMQP_URL, FLOOR_QUEUE, FLOOR_RECEIVER_URL, FLOOR_SECRET } = process.env;
const PREFETCH = 100; // the dispatcher's
const IN_FLIGHT_PER_ENDPOINT = 10; // the dispatcher's per-endpoint limit, and its undici connections

const db = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const agent = new Agent({ connections: IN_FLIGHT_PER_ENDPOINT });
const receiver = new URL(FLOOR_RECEIVER_URL);
const connection = await amqp.connect(AMQP_URL);
const channel = await connection.createChannel();
await channel.prefetch(PREFETCH);

function signature(body) {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', FLOOR_SECRET).update(`${t}.${body}`).digest('hex')}`;
}

// The endpoint's slots: a request starts when one is free (its start is timed from then, as the
// dispatcher's attempt is), and gives it back once answered.
let inFlight = 0;
const waitingForSlot = [];
const takeSlot = () =>
  inFlight < IN_FLIGHT_PER_ENDPOINT ? (inFlight++, Promise.resolve()) : new Promise((r) => waitingForSlot.push(r));
const releaseSlot = () => (waitingForSlot.length > 0 ? waitingForSlot.shift()() : inFlight--);

async function deliver(message) {
  const body = message.content.toString();
  const eventId = message.properties.messageId;
  await takeSlot();
  const startedAt = new Date();
  let response;
  let responseBody;
  let durationMs;
  try {
    response = await agent.request({
      origin: receiver.origin,
      path: receiver.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'service-event-id': eventId,
        'service-signature': signature(body),
      },
      body,
    });
    responseBody = await response.body.text();
    durationMs = Date.now() - startedAt.getTime();
  } finally {
    releaseSlot();
  }
  await db.query(
    `INSERT INTO latency_floor_attempts (event_id, started_at, duration_ms, response_status, response_body)
     VALUES ($1, $2, $3, $4, $5)`,
    [eventId, startedAt, durationMs, response.statusCode, responseBody],
  );
  if (response.statusCode >= 300) throw new Error(`the receiver answered ${response.statusCode}`);
}

await channel.consume(FLOOR_QUEUE, (message) =>
  deliver(message).then(
    () => channel.ack(message),
    (error) => {
      console.error(`[latency-floor consumer] ${error}; the message goes back`);
      channel.nack(message);
    },
  ),
);

process.once('SIGTERM', async () => {
  await connection.close();
  await Promise.all([db.end(), agent.close()]);
  process.exit(0);
});
process.send({ ready: true });
