import { Injectable } from '@nestjs/common';
import type { MerchantScope } from '@payhook/auth';
import { newId, type EventType } from '@payhook/contracts';
import { Ledger } from '../../core/ledger';

/** One forwarding of an event by a listen session, as the CLI reported it. */
export interface ListenAttempt {
  eventId: string;
  sessionId: string;
  /** Where the CLI forwarded it, for the attempt's record. */
  url: string;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

/** A listen session's attempt as recorded: the one just written, or the one an earlier report wrote. */
export interface RecordedListenAttempt {
  id: string;
  number: number;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

interface ListenAttemptRow {
  id: string;
  number: number;
  started_at: Date;
  duration_ms: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}

/**
 * The one write of webhook_attempts left in payments-api (lint allows it in this file alone, with the
 * event's attempt count beside it): the CLI's report of a `payhook listen` forwarding. The dispatcher
 * records every other attempt, but this one is the CLI's answer, not the dispatcher's work, and the
 * route answers with the attempt numbered among the event's others and shows it on the event at once
 * (a repeated report gets the same attempt back). That needs the write in the request: through the
 * dispatcher the number would be known only later. It changes no delivery, no delivery status and no
 * endpoint health.
 */
@Injectable()
export class ListenAttempts {
  constructor(private readonly ledger: Ledger) {}

  /**
   * Numbered with the event's other attempts (the event's attempt_count, as the dispatcher numbers
   * them), with the session's id as its endpoint. Only for an event the session was sent (a type it
   * takes, recorded since it began), and once per event and session.
   */
  record(
    scope: MerchantScope,
    attempt: ListenAttempt,
    session: { enabledEvents: EventType[] | null; createdAt: Date },
  ): Promise<RecordedListenAttempt | 'event_not_found' | 'not_sent_to_session'> {
    // The ledger's transaction, for the event's attempt count (events are written there or here only).
    return this.ledger.write(async ({ sql }) => {
      // The event's row lock orders two reports of one event, so the second sees the first's attempt.
      const [event] = await sql<{ sent: boolean }>(
        `SELECT (($4::text[] IS NULL OR type = ANY ($4::text[])) AND recorded_at >= $5) IS TRUE AS sent
         FROM events WHERE id = $1 AND merchant_id = $2 AND livemode = $3 FOR UPDATE`,
        [attempt.eventId, scope.merchantId, scope.livemode, session.enabledEvents, session.createdAt],
      );
      if (!event) return 'event_not_found';
      if (!event.sent) return 'not_sent_to_session';
      const [existing] = await sql<ListenAttemptRow>(
        `SELECT id, number, started_at, duration_ms, response_status, response_body, error
         FROM webhook_attempts WHERE event_id = $1 AND endpoint_id = $2 ORDER BY number LIMIT 1`,
        [attempt.eventId, attempt.sessionId],
      );
      if (existing) {
        return {
          id: existing.id,
          number: existing.number,
          startedAt: existing.started_at,
          durationMs: existing.duration_ms,
          responseStatus: existing.response_status,
          responseBody: existing.response_body,
          error: existing.error,
        };
      }
      const id = newId('attempt');
      const rows = await sql<{ number: number }>(
        `WITH event AS (
           UPDATE events SET attempt_count = attempt_count + 1, last_attempt_at = $5
           WHERE id = $1 AND merchant_id = $2 AND livemode = $3
           RETURNING id, attempt_count
         )
         INSERT INTO webhook_attempts
           (id, event_id, endpoint_id, number, url, started_at, duration_ms, response_status, response_body, error)
         SELECT $4, event.id, $6, event.attempt_count, $7, $5, $8, $9, $10, $11 FROM event
         RETURNING number`,
        [
          attempt.eventId,
          scope.merchantId,
          scope.livemode,
          id,
          attempt.startedAt,
          attempt.sessionId,
          attempt.url,
          attempt.durationMs,
          attempt.responseStatus,
          attempt.responseBody,
          attempt.error,
        ],
      );
      const { startedAt, durationMs, responseStatus, responseBody, error } = attempt;
      return { id, number: rows[0].number, startedAt, durationMs, responseStatus, responseBody, error };
    });
  }
}
