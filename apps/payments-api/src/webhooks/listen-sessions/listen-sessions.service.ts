import { Injectable } from '@nestjs/common';
import type { MerchantScope } from '@payhook/auth';
import { randomBase62, type EventType, type WebhookAttemptView } from '@payhook/contracts';
import { ListenSessionException } from './listen-session.exception';
import { isOpen, type ListenSessionRecord } from './listen-session.record';
import { ListenSessionsRepository, MAX_OPEN_SESSIONS_PER_MODE } from './listen-sessions.repository';
import type { ReportListenAttemptRequestDto } from './dto/report-listen-attempt.request.dto';

/** `whsec_` + 32 base62 characters, like every endpoint's secret. */
const newSigningSecret = () => `whsec_${randomBase62(32)}`;

/**
 * `payhook listen` sessions (ADR 0018): ephemeral endpoints of a test
 * mode, each with its own secret, streamed over the CLI's one connection (ListenStreams).
 */
@Injectable()
export class ListenSessionsService {
  constructor(private readonly sessions: ListenSessionsRepository) {}

  async create(scope: MerchantScope, enabledEvents: EventType[] | undefined): Promise<ListenSessionRecord> {
    const types = enabledEvents ? [...new Set(enabledEvents)].sort() : null;
    const created = await this.sessions.create(scope, types, newSigningSecret());
    if (created === 'limit_reached') {
      throw new ListenSessionException(
        'listen_session_limit_reached',
        `At most ${MAX_OPEN_SESSIONS_PER_MODE} listen sessions may be open per mode; end one (Ctrl-C in payhook listen) ` +
          `or wait a minute for a dropped one to end.`,
      );
    }
    return created;
  }

  async get(scope: MerchantScope, id: string): Promise<ListenSessionRecord> {
    const session = await this.sessions.find(scope, id);
    if (!session) throw notFound(id);
    return session;
  }

  async end(scope: MerchantScope, id: string): Promise<ListenSessionRecord> {
    const session = await this.sessions.end(scope, id);
    if (!session) throw notFound(id);
    return session;
  }

  /** The open session, now held by the stream `connectionId`; 409 when it has ended. */
  async claim(scope: MerchantScope, id: string, connectionId: string): Promise<ListenSessionRecord> {
    const claimed = await this.sessions.claim(scope, id, connectionId);
    if (claimed) return claimed;
    await this.get(scope, id);
    throw new ListenSessionException(
      'listen_session_ended',
      `Listen session ${id} has ended; start payhook listen again for a new one.`,
    );
  }

  /** Where a resumed stream picks up: the instant Last-Event-ID was written, when the scope has that event. */
  resumePoint(scope: MerchantScope, lastEventId: string | undefined): Promise<Date | null> {
    if (!lastEventId || !/^evt_[0-9A-Za-z]{20,64}$/.test(lastEventId)) return Promise.resolve(null);
    return this.sessions.recordedAt(scope, lastEventId);
  }

  /** The local answer the CLI reports, recorded as an attempt of the event with the session as its endpoint. */
  async reportAttempt(
    scope: MerchantScope,
    id: string,
    report: ReportListenAttemptRequestDto,
  ): Promise<WebhookAttemptView> {
    const session = await this.get(scope, id);
    if (!isOpen(session)) {
      throw new ListenSessionException('listen_session_ended', `Listen session ${id} has ended.`);
    }
    const responseStatus = report.responseStatus ?? null;
    const error = withoutNul(report.error);
    if (responseStatus === null && error === null) {
      throw new ListenSessionException(
        'parameter_missing',
        'error is required when there is no responseStatus: say why the local handler did not answer.',
        'error',
      );
    }
    const startedAt = new Date(Date.now() - report.durationMs);
    const recorded = await this.sessions.recordAttempt(scope, session, {
      eventId: report.eventId,
      url: `payhook listen ${session.id}`,
      startedAt,
      durationMs: report.durationMs,
      responseStatus,
      responseBody: withoutNul(report.responseBody),
      error,
    });
    if (recorded === 'event_not_found') {
      throw new ListenSessionException('resource_not_found', `No such event: ${report.eventId}.`, 'eventId');
    }
    if (recorded === 'not_sent_to_session') {
      throw new ListenSessionException(
        'parameter_invalid',
        `Event ${report.eventId} was not sent to listen session ${id}: ` +
          `its type is not one the session takes, or it was recorded before the session began.`,
        'eventId',
      );
    }
    return {
      id: recorded.id,
      endpointId: session.id,
      number: recorded.number,
      startedAt: recorded.startedAt.toISOString(),
      durationMs: recorded.durationMs,
      responseStatus: recorded.responseStatus,
      responseBody: recorded.responseBody,
      error: recorded.error,
    };
  }
}

/** Postgres text cannot hold NUL: refused, the CLI would report the same answer again forever. */
const withoutNul = (text: string | null | undefined) => text?.replace(/\0/g, '') ?? null;

const notFound = (id: string) =>
  new ListenSessionException('resource_not_found', `No such listen session: ${id}.`, 'id');
