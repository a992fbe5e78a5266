import type { EventType } from '@payhook/contracts';

/** A `payhook listen` session as stored, its secret opened. */
export interface ListenSessionRecord {
  id: string;
  merchantId: string;
  livemode: boolean;
  signingSecret: string;
  /** Null: every event type of the mode. */
  enabledEvents: EventType[] | null;
  connectionId: string | null;
  lastSeenAt: Date;
  endedAt: Date | null;
  createdAt: Date;
}

/** GET and DELETE /v1/listen-sessions/{id}: what the CLI needs to resume, without the secret. */
export interface ListenSessionView {
  id: string;
  livemode: boolean;
  enabledEvents: EventType[] | null;
  status: 'open' | 'ended';
  createdAt: string;
  endedAt: string | null;
}

/**
 * How long a session whose stream dropped stays open for the CLI to come back and receive what it
 * missed; after that it has ended, and no longer counts toward the merchant's open sessions.
 */
export const RECONNECT_GRACE_MS = 60_000;

export function isOpen(session: ListenSessionRecord, now = Date.now()): boolean {
  return session.endedAt === null && now - session.lastSeenAt.getTime() < RECONNECT_GRACE_MS;
}

/**
 * POST /v1/listen-sessions: the session with its secret, shown once, to the CLI that prints it (as an
 * API key is shown only at its creation); a GET or DELETE with the same key does not need it again.
 */
export interface CreatedListenSessionView extends ListenSessionView {
  signingSecret: string;
}

export function toCreatedListenSessionView(session: ListenSessionRecord): CreatedListenSessionView {
  return { ...toListenSessionView(session), signingSecret: session.signingSecret };
}

export function toListenSessionView(session: ListenSessionRecord, now = Date.now()): ListenSessionView {
  const open = isOpen(session, now);
  const endedAt = session.endedAt ?? (open ? null : new Date(session.lastSeenAt.getTime() + RECONNECT_GRACE_MS));
  return {
    id: session.id,
    livemode: session.livemode,
    enabledEvents: session.enabledEvents,
    status: open ? 'open' : 'ended',
    createdAt: session.createdAt.toISOString(),
    endedAt: endedAt ? endedAt.toISOString() : null,
  };
}
