import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import type { ListenSessionsRepository } from './listen-sessions.repository';
import { ListenStreams, type StreamStart } from './listen-streams';

/** A response whose client reads nothing: every write fills the socket's buffer. */
class StalledResponse extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  writableNeedDrain = false;
  readonly written: string[] = [];
  status = () => this;
  set = () => this;
  flushHeaders = () => undefined;
  write(chunk: string): boolean {
    this.written.push(chunk);
    this.writableNeedDrain = true;
    return false;
  }
  end(): void {
    this.writableEnded = true;
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    process.nextTick(() => this.emit('close'));
  }
}

/** A response whose client reads everything at once. */
class ReadingResponse extends StalledResponse {
  override write(chunk: string): boolean {
    this.written.push(chunk);
    return true;
  }
}

describe('a listen stream whose client stops reading', () => {
  const createdAt = new Date();
  const start: StreamStart = {
    session: {
      id: 'lsn_1',
      merchantId: 'mer_1',
      livemode: false,
      signingSecret: 'whsec_tbUnIEU4XQHGdkn6IIpsDwWbPgtXFQEG',
      enabledEvents: null,
      connectionId: 'conn_1',
      lastSeenAt: createdAt,
      endedAt: null,
      createdAt,
    },
    connectionId: 'conn_1',
    resumeFrom: null,
    lastEventId: null,
  };
  let sessions: { touch: jest.Mock; feed: jest.Mock; release: jest.Mock };
  let response: StalledResponse;
  let streams: ListenStreams;

  beforeEach(() => {
    jest.useFakeTimers();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    sessions = {
      touch: jest.fn().mockResolvedValue(true),
      feed: jest
        .fn()
        .mockResolvedValueOnce([{ id: 'evt_1', type: 'payment.completed', body: '{}', recordedAt: createdAt }])
        .mockResolvedValue([]),
      release: jest.fn().mockResolvedValue(undefined),
    };
    response = new StalledResponse();
    streams = new ListenStreams(sessions as unknown as ListenSessionsRepository);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  const serve = () => {
    let ended = false;
    const serving = streams.serve(start, response as unknown as Response).then(() => (ended = true));
    return { serving, ended: () => ended };
  };

  it('is ended by a shutdown rather than holding it', async () => {
    const stream = serve();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(stream.ended()).toBe(false);

    await streams.beforeApplicationShutdown();
    await stream.serving;
    expect(response.destroyed).toBe(true);
    expect(sessions.release).toHaveBeenCalledWith('lsn_1', 'conn_1');
  });

  it('keeps its session alive while it waits, and drops the client after 30 s without a read', async () => {
    const stream = serve();
    await jest.advanceTimersByTimeAsync(25_000);
    expect(stream.ended()).toBe(false);
    expect(sessions.touch).toHaveBeenCalledTimes(5);

    await jest.advanceTimersByTimeAsync(6_000);
    await stream.serving;
    expect(response.destroyed).toBe(true);
    expect(sessions.release).toHaveBeenCalledWith('lsn_1', 'conn_1');
  });

  it('ends when the heartbeat finds the session taken over, even while it waits', async () => {
    sessions.touch.mockResolvedValue(false);
    const stream = serve();
    await jest.advanceTimersByTimeAsync(5_000);
    await stream.serving;
    expect(response.written.at(-1)).toMatch(/^event: end\n/);
    // Its buffer still full: the socket is dropped, not left to drain.
    expect(response.destroyed).toBe(true);
    expect(sessions.release).not.toHaveBeenCalled();
  });

  it("ends at its next poll, not its next heartbeat, when another instance's stream holds the session", async () => {
    // Held at the first poll, with an event; taken over before the second, with another waiting.
    sessions.feed
      .mockReset()
      .mockResolvedValueOnce([{ id: 'evt_1', type: 'payment.completed', body: '{}', recordedAt: createdAt }])
      .mockResolvedValue('not_held');
    const reading = new ReadingResponse();
    let ended = false;
    const serving = streams.serve(start, reading as unknown as Response).then(() => (ended = true));
    await jest.advanceTimersByTimeAsync(250);
    expect(ended).toBe(true);
    await serving;
    expect(sessions.feed).toHaveBeenCalledTimes(2);
    expect(sessions.feed).toHaveBeenCalledWith(expect.objectContaining({ connectionId: 'conn_1' }));
    expect(sessions.touch).not.toHaveBeenCalled();
    // The event of the poll that still held it, and nothing after.
    expect(reading.written.filter((chunk) => /\nevent: delivery\n/.test(chunk))).toHaveLength(1);
    expect(reading.written.at(-1)).toMatch(/^event: end\n/);
    expect(sessions.release).not.toHaveBeenCalled();
  });
});
