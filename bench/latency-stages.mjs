// Where the time of completion → webhook goes: the stage timestamps of a sample of events, read from
// the database after the run (and each event's arrival from the receiver), and the gaps between
// consecutive stages as p50/p99. The latency floor (bench/latency-floor.mjs) reports the same stages.
import pg from 'pg';
import { fmt, percentile } from './measure.mjs';

/** Every SAMPLE_EVERY-th event of a run has its stages read. */
export const SAMPLE_EVERY = 20;

/**
 * The gaps reported, each between two stages of an event (ms timestamps). `written` is the outbox
 * row's write within the completion's transaction; `pickedUp` the relay pass that took the row (the
 * transaction start its published_at holds); `arrived` the receiver's first arrival.
 */
const GAPS = [
  { label: 'completion → outbox row written (in the completion’s transaction)', from: 'completed', to: 'written' },
  {
    label: 'outbox row written → relay pass picks it up (rest of the transaction, commit, NOTIFY, wake)',
    from: 'written',
    to: 'pickedUp',
  },
  {
    label: 'relay pick-up → request start (publish, confirm, broker, consume; the product reads the delivery too)',
    from: 'pickedUp',
    to: 'requestStarted',
  },
  { label: 'request start → receiver arrival', from: 'requestStarted', to: 'arrived' },
  { label: 'receiver arrival → response read', from: 'arrived', to: 'responded' },
  { label: 'response → attempt recorded', from: 'responded', to: 'recorded' },
  { label: 'total: completion → receiver arrival', from: 'completed', to: 'arrived' },
];

/** p50/p99 of each gap over the samples that have both of its stages; undefined where none has. */
export function stageGaps(samples) {
  return GAPS.map(({ label, from, to }) => {
    const gaps = samples.filter((s) => s[from] != null && s[to] != null).map((s) => s[to] - s[from]);
    return gaps.length
      ? { label, n: gaps.length, p50: percentile(gaps, 50), p99: percentile(gaps, 99) }
      : { label, n: 0 };
  });
}

/** A timestamptz column as epoch milliseconds, the receiver's clock. */
export const epochMs = (column) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * The stages of every SAMPLE_EVERY-th of the payments completed (in completion order), as the product
 * stores them: the payment's completed_at, the delivery request's requestedAt (set as its outbox row
 * is written), the outbox row's published_at (the relay pass's transaction start), the first
 * attempt's started_at and started_at + duration_ms. Commit, confirm, consume and record have no
 * timestamp in the product.
 */
export async function completionStages(databaseUrl, receiver, paymentIds) {
  const sample = paymentIds.filter((_, index) => index % SAMPLE_EVERY === 0);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      `WITH requested AS (
         SELECT payload::json->>'eventId' AS event_id, min((payload::json->>'requestedAt')::timestamptz) AS written,
                min(published_at) AS picked_up
         FROM outbox WHERE routing_key = 'webhook.deliver' GROUP BY 1
       )
       SELECT e.id AS event_id, ${epochMs('p.completed_at')} AS completed, ${epochMs('r.written')} AS written,
              ${epochMs('r.picked_up')} AS picked_up, ${epochMs('a.started_at')} AS request_started,
              ${epochMs('a.started_at')} + a.duration_ms AS responded
       FROM unnest($1::text[]) AS s(payment_id)
       JOIN payments p ON p.id = s.payment_id
       JOIN events e ON e.payment_id = p.id AND e.type = 'payment.completed'
       LEFT JOIN requested r ON r.event_id = e.id
       LEFT JOIN webhook_attempts a ON a.event_id = e.id AND a.number = 1`,
      [sample],
    );
    return stagesOf(rows, await receiver.arrivalsByEvent());
  } finally {
    await db.end();
  }
}

const cell = (gap) => (gap?.n ? `${fmt(gap.p50, 1)} / ${fmt(gap.p99, 1)}` : '–');

/** The "where the time goes" table: each gap's p50 / p99 in the completion row and in the floor. */
export function stagesTable(completion, floor) {
  return [
    '| stage | completion → webhook: p50 / p99 (ms) | latency floor: p50 / p99 (ms) |',
    '|---|---|---|',
    ...completion.map((gap, index) => `| ${gap.label} | ${cell(gap)} | ${cell(floor[index])} |`),
  ].join('\n');
}

/** Each sampled event's stage times (epoch ms) from its database row and its arrival at the receiver. */
export const stagesOf = (rows, arrivals) =>
  rows.map((row) => ({
    completed: row.completed,
    written: row.written,
    pickedUp: row.picked_up,
    requestStarted: row.request_started,
    arrived: arrivals[row.event_id],
    responded: row.responded,
    recorded: row.recorded,
  }));
