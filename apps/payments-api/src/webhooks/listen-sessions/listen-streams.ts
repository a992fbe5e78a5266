import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { WEBHOOK_USER_AGENT } from '@payhook/contracts';
import { deliveryHeaders } from '@payhook/signing';
import type { Response } from 'express';
import type { ListenSessionRecord } from './listen-session.record';
import { ListenSessionsRepository } from './listen-sessions.repository';
import { sseComment, sseMessage, sseRetry } from './server-sent-events';

/** How often an open stream looks for new events of its mode. */
const POLL_INTERVAL_MS = 250;
/** How often the stream says it is still there (last_seen_at, and a comment line the CLI's idle timer sees). */
const HEARTBEAT_MS = 5_000;
/**
 * Events become visible at their commit, a little after the clock that recorded_at read: each read
 * looks this far back before the newest event sent, so one committed late is still found. Not one
 * committed more than this after its insert once a later event went: that one is never streamed
 * (ADR 0018, Consequences, which also says how to close the gap).
 */
const LOOK_BACK_MS = 10_000;
const BATCH_SIZE = 100;
/** What the client waits before reconnecting after a drop. */
const RECONNECT_DELAY_MS = 1_000;
/** A client that reads nothing for this long is dropped: it would hold its stream (and a shutdown) forever. */
const DRAIN_TIMEOUT_MS = 30_000;
const TAKEN_OVER = 'The session ended, or another payhook listen took it over.';

export interface StreamStart {
  session: ListenSessionRecord;
  connectionId: string;
  /** Where a resumed stream picks up (the Last-Event-ID's recorded_at); null: the session's start. */
  resumeFrom: Date | null;
  lastEventId: string | null;
}

/**
 * The open `payhook listen` streams of this process (ADR 0018): each reads its mode's events in the
 * order they were written and sends every one, signed with the session's secret, as a Server-Sent
 * Event holding the exact headers and body a delivery would have. A shutdown closes them; the CLI
 * reconnects (to this instance or another) and resumes after its last event.
 */
@Injectable()
export class ListenStreams implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ListenStreams.name);
  private readonly open = new Set<ListenStream>();

  constructor(private readonly sessions: ListenSessionsRepository) {}

  /** Serves the stream until the client goes, another stream takes the session over, or it ends. */
  async serve(start: StreamStart, response: Response): Promise<void> {
    const stream = new ListenStream(start, response, this.sessions, this.logger);
    this.open.add(stream);
    try {
      await stream.run();
    } finally {
      this.open.delete(stream);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.open].map((stream) => stream.stop()));
  }
}

class ListenStream {
  private stopped = false;
  /** Set by the heartbeat when the session ended or another stream took it over. */
  private endReason: string | null = null;
  private wake?: () => void;
  private running?: Promise<void>;
  private heartbeatTimer?: NodeJS.Timeout;
  private heartbeating: Promise<void> = Promise.resolve();
  /** Sent on this connection, by id, with when each was written: not sent twice within the look-back. */
  private readonly sent = new Map<string, number>();
  private newest: number;

  constructor(
    private readonly start: StreamStart,
    private readonly response: Response,
    private readonly sessions: ListenSessionsRepository,
    private readonly logger: Logger,
  ) {
    this.newest = (start.resumeFrom ?? start.session.createdAt).getTime();
  }

  /** Ends the stream with an `end` event saying why: the CLI does not reconnect. */
  private end(reason: string): void {
    this.endReason = reason;
    this.stopped = true;
    this.wake?.();
  }

  run(): Promise<void> {
    this.running = this.loop();
    return this.running;
  }

  /** Ends the stream without an `end` event: to the CLI it is a drop, and it reconnects. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    // A client that stopped reading would otherwise hold the loop, and the shutdown, at drained().
    this.response.destroy();
    await this.running;
  }

  private async loop(): Promise<void> {
    const { session, connectionId } = this.start;
    this.response.on('close', () => {
      this.stopped = true;
      this.wake?.();
    });
    // A client that left while the session was being claimed: its 'close' has been and gone.
    if (this.response.destroyed) this.stopped = true;
    this.response.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      // Proxies that buffer responses (nginx) would hold events back.
      'X-Accel-Buffering': 'no',
    });
    this.response.flushHeaders();
    this.write(sseRetry(RECONNECT_DELAY_MS));
    this.write(sseMessage({ event: 'ready', data: { sessionId: session.id, resumedAfter: this.start.lastEventId } }));
    this.scheduleHeartbeat();
    while (!this.stopped) {
      let full = false;
      try {
        full = await this.sendNewEvents();
      } catch (error) {
        // A database outage: the stream stays, and tries again at the next tick.
        this.warn(error);
      }
      if (!full && !this.stopped) await this.pause(POLL_INTERVAL_MS);
    }
    clearTimeout(this.heartbeatTimer);
    await this.heartbeating;
    const endReason = this.endReason;
    if (endReason) this.write(sseMessage({ event: 'end', data: { reason: endReason } }));
    // A client that is not reading would keep the socket until its buffer drains: drop it instead.
    if (this.response.writableNeedDrain) this.response.destroy();
    else if (!this.response.destroyed) this.response.end();
    if (endReason === null) {
      // The client went (or this process stops): the reconnect grace starts now.
      await this.sessions.release(session.id, connectionId).catch(() => undefined);
    }
  }

  /**
   * On its own timer, not the send loop's: a stream waiting for a slow client to read still keeps its
   * session alive (last_seen_at), and still learns that the session ended or was taken over.
   */
  private scheduleHeartbeat(): void {
    this.heartbeatTimer = setTimeout(() => {
      this.heartbeating = this.heartbeat().finally(() => {
        if (!this.stopped) this.scheduleHeartbeat();
      });
    }, HEARTBEAT_MS);
  }

  private async heartbeat(): Promise<void> {
    try {
      const held = await this.sessions.touch(this.start.session.id, this.start.connectionId);
      if (!held) {
        this.end(TAKEN_OVER);
        return;
      }
      this.write(sseComment('still here'));
    } catch (error) {
      // A database outage: the next heartbeat tries again.
      this.warn(error);
    }
  }

  private warn(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`listen session ${this.start.session.id}: ${message}`);
  }

  /** Sends what is new; true when a whole batch went (more may be waiting). */
  private async sendNewEvents(): Promise<boolean> {
    const { session } = this.start;
    const from = Math.max(session.createdAt.getTime(), this.newest - LOOK_BACK_MS);
    for (const [id, recordedAt] of this.sent) if (recordedAt < from) this.sent.delete(id);
    const events = await this.sessions.feed({
      session,
      connectionId: this.start.connectionId,
      from: new Date(from),
      exclude: [...this.sent.keys()],
      limit: BATCH_SIZE,
    });
    if (events === 'not_held') {
      this.end(TAKEN_OVER);
      return false;
    }
    for (const event of events) {
      if (this.stopped) return false;
      // Signed as the dispatcher signs a delivery, at the moment it leaves.
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        ...deliveryHeaders({ eventId: event.id, body: event.body, secrets: [session.signingSecret] }),
      };
      const delivered = this.write(
        sseMessage({
          id: event.id,
          event: 'delivery',
          data: { eventId: event.id, type: event.type, headers, body: event.body },
        }),
      );
      this.sent.set(event.id, event.recordedAt.getTime());
      this.newest = Math.max(this.newest, event.recordedAt.getTime());
      // A slow client: wait for its socket to take more rather than buffering the mode's events here.
      if (!delivered) await this.drained();
    }
    return events.length === BATCH_SIZE;
  }

  private write(chunk: string): boolean {
    if (this.response.writableEnded || this.response.destroyed) return true;
    return this.response.write(chunk);
  }

  /** Until the client reads, goes, or the stream stops; a client that reads nothing for DRAIN_TIMEOUT_MS is dropped. */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.logger.warn(`listen session ${this.start.session.id}: the client read nothing for 30 s; dropping it`);
        this.stopped = true;
        this.response.destroy();
        done();
      }, DRAIN_TIMEOUT_MS);
      const done = () => {
        clearTimeout(timer);
        this.response.off('drain', done);
        this.response.off('close', done);
        resolve();
      };
      this.response.once('drain', done);
      this.response.once('close', done);
      this.wake = done;
    });
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
