import { type PayhookClient } from '@payhook/sdk';
import { CliError, EXIT } from '../cli-error';
import { SseParser } from './sse-parser';

/** One signed delivery as the session's stream carries it: what to POST, byte for byte. */
export interface StreamedDelivery {
  eventId: string;
  type: string;
  headers: Record<string, string>;
  body: string;
}

export interface ListenStreamHandlers {
  /** The stream is open (again): `resumed` after a reconnect. */
  onReady(resumed: boolean): void;
  /** Awaited before the next event is read: deliveries reach the handler one at a time, in order. */
  onDelivery(delivery: StreamedDelivery): Promise<void>;
  onDrop(reason: string, retryInMs: number): void;
}

/** The server says it is still there every 5 s; this long without a byte means the connection is gone. */
const SILENCE_LIMIT_MS = 20_000;
const MAX_RECONNECT_DELAY_MS = 10_000;

/**
 * The session's one outgoing connection (ADR 0018): a Server-Sent Events stream read with fetch. A
 * connection that drops is opened again with Last-Event-ID, the last event handled, so payhook
 * sends what came meanwhile. Resolves with why payhook ended the session, or null once stopped.
 */
export class ListenStream {
  private readonly abort = new AbortController();
  private stopped = false;
  private lastHandled: string | undefined;

  constructor(
    private readonly client: PayhookClient,
    private readonly sessionId: string,
    private readonly handlers: ListenStreamHandlers,
    private readonly silenceLimitMs = SILENCE_LIMIT_MS,
  ) {}

  /** Ends the connection; run() resolves once the delivery in hand is done. */
  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  async run(): Promise<string | null> {
    let delayMs = 1_000;
    let opened = false;
    while (!this.stopped) {
      let reason: string;
      try {
        const outcome = await this.connect(() => {
          this.handlers.onReady(opened);
          opened = true;
          delayMs = 1_000;
        });
        if (outcome.ended) return outcome.reason;
        reason = outcome.reason;
      } catch (error) {
        if (error instanceof CliError) throw error;
        if (this.stopped) break;
        reason = describe(error);
      }
      if (this.stopped) break;
      this.handlers.onDrop(reason, delayMs);
      await sleep(delayMs, this.abort.signal);
      delayMs = Math.min(delayMs * 2, MAX_RECONNECT_DELAY_MS);
    }
    return null;
  }

  /** One connection, read to its end. */
  private async connect(onReady: () => void): Promise<{ ended: boolean; reason: string }> {
    const { url, headers } = this.client.listenStreamRequest(this.sessionId, this.lastHandled);
    const connection = new AbortController();
    const onStop = () => connection.abort();
    this.abort.signal.addEventListener('abort', onStop);
    const listenForSilence = () => setTimeout(() => connection.abort(), this.silenceLimitMs);
    let silence = listenForSilence();
    try {
      const response = await fetch(url, { headers, signal: connection.signal });
      if (response.status !== 200) return await refused(response);
      if (!response.body) return { ended: false, reason: 'payhook sent no stream' };
      const parser = new SseParser(this.lastHandled);
      const decoder = new TextDecoder();
      const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return { ended: false, reason: 'payhook closed the connection' };
        clearTimeout(silence);
        silence = listenForSilence();
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          if (event.event === 'ready') onReady();
          else if (event.event === 'end') return { ended: true, reason: endReason(event.data) };
          else if (event.event === 'delivery') {
            // A delivery that arrives as Ctrl-C is pressed is left for payhook to record unforwarded.
            if (this.stopped) return { ended: false, reason: 'stopped' };
            // Nothing is read while the local handler answers (up to FORWARD_TIMEOUT_MS, then the report):
            // payhook's heartbeats wait unread, which is no silence on its part.
            clearTimeout(silence);
            await this.handlers.onDelivery(JSON.parse(event.data) as StreamedDelivery);
            silence = listenForSilence();
            this.lastHandled = event.lastEventId;
          }
        }
      }
    } catch (error) {
      if (connection.signal.aborted && !this.stopped) {
        return { ended: false, reason: `no word from payhook for ${this.silenceLimitMs / 1000} s` };
      }
      throw error;
    } finally {
      clearTimeout(silence);
      this.abort.signal.removeEventListener('abort', onStop);
    }
  }
}

/** A stream request payhook refused: the session is gone or the key is wrong (stop), or a passing failure (retry). */
async function refused(response: Response): Promise<{ ended: boolean; reason: string }> {
  const text = await response.text().catch(() => '');
  let code = 'unexpected_response';
  let message = `payhook answered ${response.status}`;
  try {
    const parsed = JSON.parse(text) as { error?: { code?: string; message?: string } };
    code = parsed.error?.code ?? code;
    message = parsed.error?.message ?? message;
  } catch {
    // Not the API's JSON (a proxy's page): the status says enough.
  }
  if (response.status === 429 || response.status >= 500) return { ended: false, reason: `${response.status} ${code}` };
  throw new CliError(`payhook answered ${response.status} ${code}: ${message}`, EXIT.failed);
}

function endReason(data: string): string {
  try {
    return (JSON.parse(data) as { reason?: string }).reason ?? 'payhook ended the session';
  } catch {
    return 'payhook ended the session';
  }
}

function describe(error: unknown): string {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
