import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MerchantScope } from '@payhook/auth';
import type { SecretsKeyring } from '@payhook/config';
import { newId, type EventType } from '@payhook/contracts';
import { sqlRows } from '@payhook/persistence';
import { DataSource } from 'typeorm';
import { PaymentsApiEnv } from '../../platform/config/payments-api.env';
import { Ledger } from '../../core/ledger';
import { ListenAttempts, type ListenAttempt, type RecordedListenAttempt } from '../deliveries';
import { RECONNECT_GRACE_MS, type ListenSessionRecord } from './listen-session.record';

/** Open sessions a merchant may hold per mode: a developer or two, never a merchant's whole API instance. */
export const MAX_OPEN_SESSIONS_PER_MODE = 5;

interface SessionRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  signing_secret: string;
  enabled_events: EventType[] | null;
  connection_id: string | null;
  last_seen_at: Date;
  ended_at: Date | null;
  created_at: Date;
}

const SESSION_COLUMNS = `id, merchant_id, livemode, signing_secret, enabled_events, connection_id, last_seen_at,
  ended_at, created_at`;

/** Still open: not ended, and its stream seen within the reconnect grace. */
const OPEN_SQL = `ended_at IS NULL AND last_seen_at > now() - make_interval(secs => ${RECONNECT_GRACE_MS / 1000})`;

/** What a session's sealed secret is bound to: its own row, so a copy in another row does not open. */
const secretContext = (id: string) => `listen_sessions.signing_secret:${id}`;

/** One event of the feed: its body's bytes as every endpoint gets them. */
export interface FeedEvent {
  id: string;
  type: EventType;
  body: string;
  recordedAt: Date;
}

export interface FeedQuery {
  session: ListenSessionRecord;
  /** The stream asking: it must still hold the session. */
  connectionId: string;
  /** Events written at or after this instant. */
  from: Date;
  /** Already sent on this connection (within the look-back): not again. */
  exclude: string[];
  limit: number;
}

@Injectable()
export class ListenSessionsRepository {
  private readonly keyring: SecretsKeyring;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly ledger: Ledger,
    private readonly attempts: ListenAttempts,
    env: PaymentsApiEnv,
  ) {
    this.keyring = env.secretsKeyring;
  }

  /**
   * A new open session of the scope with `secret` (sealed), or 'limit_reached' when the scope holds
   * MAX_OPEN_SESSIONS_PER_MODE open ones. Counted and inserted under a lock of the scope's sessions;
   * sessions past their grace are marked ended on the way, so the open index stays small.
   */
  async create(
    scope: MerchantScope,
    enabledEvents: EventType[] | null,
    secret: string,
  ): Promise<ListenSessionRecord | 'limit_reached'> {
    return this.ledger.write(async (tx) => {
      await tx.sql(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `listen-sessions:${scope.merchantId}:${scope.livemode}`,
      ]);
      await tx.sql(
        `UPDATE listen_sessions SET ended_at = last_seen_at + make_interval(secs => $3), connection_id = NULL
         WHERE merchant_id = $1 AND livemode = $2 AND ended_at IS NULL
           AND last_seen_at <= now() - make_interval(secs => $3)`,
        [scope.merchantId, scope.livemode, RECONNECT_GRACE_MS / 1000],
      );
      const [{ count }] = await tx.sql<{ count: number }>(
        `SELECT count(*)::int AS count FROM listen_sessions WHERE merchant_id = $1 AND livemode = $2 AND ${OPEN_SQL}`,
        [scope.merchantId, scope.livemode],
      );
      if (count >= MAX_OPEN_SESSIONS_PER_MODE) return 'limit_reached';
      const id = newId('listenSession');
      const rows = await tx.sql<SessionRow>(
        `INSERT INTO listen_sessions (id, merchant_id, livemode, signing_secret, enabled_events, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, now())
         RETURNING ${SESSION_COLUMNS}`,
        [id, scope.merchantId, scope.livemode, this.keyring.seal(secret, secretContext(id)), enabledEvents],
      );
      return this.toRecord(rows[0]);
    });
  }

  async find(scope: MerchantScope, id: string): Promise<ListenSessionRecord | null> {
    const rows = await sqlRows<SessionRow>(
      this.db,
      `SELECT ${SESSION_COLUMNS} FROM listen_sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [id, scope.merchantId, scope.livemode],
    );
    return rows[0] ? this.toRecord(rows[0]) : null;
  }

  /** The stream `connectionId` holds the open session from now on (a stream before it lets go); null when not open. */
  async claim(scope: MerchantScope, id: string, connectionId: string): Promise<ListenSessionRecord | null> {
    const rows = await sqlRows<SessionRow>(
      this.db,
      `UPDATE listen_sessions SET connection_id = $4, last_seen_at = now()
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND ${OPEN_SQL}
       RETURNING ${SESSION_COLUMNS}`,
      [id, scope.merchantId, scope.livemode, connectionId],
    );
    return rows[0] ? this.toRecord(rows[0]) : null;
  }

  /** The open stream is still there; false when another stream took the session over or it ended. */
  async touch(id: string, connectionId: string): Promise<boolean> {
    const rows = await sqlRows(
      this.db,
      `UPDATE listen_sessions SET last_seen_at = now() WHERE id = $1 AND connection_id = $2 AND ended_at IS NULL
       RETURNING 1`,
      [id, connectionId],
    );
    return rows.length === 1;
  }

  /** The stream dropped: the reconnect grace counts from now. */
  async release(id: string, connectionId: string): Promise<void> {
    await sqlRows(
      this.db,
      `UPDATE listen_sessions SET connection_id = NULL, last_seen_at = now()
       WHERE id = $1 AND connection_id = $2 AND ended_at IS NULL`,
      [id, connectionId],
    );
  }

  /** Ends the session now (the CLI's Ctrl-C); an ended one is returned as it is. */
  async end(scope: MerchantScope, id: string): Promise<ListenSessionRecord | null> {
    await sqlRows(
      this.db,
      `UPDATE listen_sessions SET ended_at = LEAST(now(), last_seen_at + make_interval(secs => $4)),
         connection_id = NULL
       WHERE id = $1 AND merchant_id = $2 AND livemode = $3 AND ended_at IS NULL`,
      [id, scope.merchantId, scope.livemode, RECONNECT_GRACE_MS / 1000],
    );
    return this.find(scope, id);
  }

  /** When the event was written (events.recorded_at), if the scope has it: where a resumed stream starts. */
  async recordedAt(scope: MerchantScope, eventId: string): Promise<Date | null> {
    const rows = await sqlRows<{ recorded_at: Date | null }>(
      this.db,
      `SELECT recorded_at FROM events WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [eventId, scope.merchantId, scope.livemode],
    );
    return rows[0]?.recorded_at ?? null;
  }

  /**
   * The session's next events in the order they were written (events_test_feed_idx), of the types it
   * takes, leaving out those sent on this connection and those the session already reported an
   * attempt for (sent before a reconnect).
   */
  /**
   * What is new for a stream holding the session as `connectionId`, or 'not_held' once the session
   * ended or another stream took it over: checked in the same statement (the database decides
   * between two streams claiming at once), so a superseded stream sends nothing more and learns it
   * at its next poll, not at its next heartbeat. Not held, the events are not read at all.
   */
  async feed({ session, connectionId, from, exclude, limit }: FeedQuery): Promise<FeedEvent[] | 'not_held'> {
    const rows = await sqlRows<{
      held: boolean;
      id: string | null;
      type: EventType;
      body: string;
      recorded_at: Date;
    }>(
      this.db,
      `SELECT held.ok AS held, e.id, e.type, e.body, e.recorded_at
       FROM (SELECT EXISTS (SELECT 1 FROM listen_sessions
                            WHERE id = $5 AND connection_id = $7 AND ended_at IS NULL) AS ok) held
       LEFT JOIN LATERAL (
         SELECT e.id, e.type, e.body, e.recorded_at FROM events e
         WHERE held.ok AND e.merchant_id = $1 AND NOT e.livemode AND e.recorded_at IS NOT NULL AND e.recorded_at >= $2
           AND ($3::text[] IS NULL OR e.type = ANY ($3::text[]))
           AND NOT (e.id = ANY ($4::text[]))
           AND NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.event_id = e.id AND a.endpoint_id = $5)
         ORDER BY e.recorded_at, e.id
         LIMIT $6
       ) e ON true
       ORDER BY e.recorded_at, e.id`,
      [session.merchantId, from, session.enabledEvents, exclude, session.id, limit, connectionId],
    );
    if (!rows[0]?.held) return 'not_held';
    return rows
      .filter((row) => row.id !== null)
      .map((row) => ({ id: row.id!, type: row.type, body: row.body, recordedAt: row.recorded_at }));
  }

  /** The attempt the CLI reported, numbered with the event's others (ListenAttempts.record). */
  recordAttempt(
    scope: MerchantScope,
    session: ListenSessionRecord,
    attempt: Omit<ListenAttempt, 'sessionId'>,
  ): Promise<RecordedListenAttempt | 'event_not_found' | 'not_sent_to_session'> {
    return this.attempts.record(scope, { ...attempt, sessionId: session.id }, session);
  }

  private toRecord(row: SessionRow): ListenSessionRecord {
    return {
      id: row.id,
      merchantId: row.merchant_id,
      livemode: row.livemode,
      // Sealed under SECRETS_KEY like every signing secret (ADR 0011); opened only to sign and to show.
      signingSecret: this.keyring.open(row.signing_secret, secretContext(row.id)),
      enabledEvents: row.enabled_events,
      connectionId: row.connection_id,
      lastSeenAt: row.last_seen_at,
      endedAt: row.ended_at,
      createdAt: row.created_at,
    };
  }
}
