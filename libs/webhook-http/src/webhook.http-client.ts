import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { WEBHOOK_USER_AGENT } from '@payhook/contracts';
import { Agent, type Dispatcher } from 'undici';
import { TARGET_FORBIDDEN_CODE, guardedLookup, isForbiddenAddress, targetForbiddenError } from './private-address';

/** The configuration both apps share (libs/config CommonEnv). */
export interface WebhookHttpConfig {
  WEBHOOK_TIMEOUT_MS: number;
  allowPrivateWebhookUrls: boolean;
}

export interface WebhookHttpClientOptions {
  /** One deadline for connect, headers and body together. */
  timeoutMs: number;
  /** Lets tests and local setups reach http:// and private addresses; never set in production. */
  allowPrivateUrls: boolean;
  userAgent: string;
  connectionsPerOrigin?: number;
  /**
   * Told, as each request starts, how many requests to its URL this client then has in flight (this
   * one included). Counted here, from the request's start until its response body is read or
   * dropped or it failed: independent of whoever limits the requests (the dispatcher's metrics).
   */
  onRequestStart?: (inFlightToUrl: number) => void;
}

/** One attempt's outcome, as recorded. */
export interface DeliveryResult {
  ok: boolean;
  status: number | null;
  /** The first 1 KiB of the response body, or null when there was no response. */
  responseBody: string | null;
  error: string | null;
  durationMs: number;
}

export const RESPONSE_EXCERPT_BYTES = 1024;
// Reading a small body to its end lets the connection go back to the pool; a bigger one costs more than a reconnect.
const DRAIN_LIMIT_BYTES = 64 * 1024;

const errorLabels: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the server',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};
const timeoutCodes = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The dispatcher's only outbound HTTP: POSTs a webhook and reports what happened, never throwing. */
export class WebhookHttpClient {
  private readonly agent: Agent;
  /** Requests in flight by URL; only URLs with requests running, so it stays as small as the work. */
  private readonly inFlight = new Map<string, number>();

  /** The client for an app's configuration, sending payhook's webhook User-Agent. */
  static fromConfig(
    config: WebhookHttpConfig,
    onRequestStart?: WebhookHttpClientOptions['onRequestStart'],
  ): WebhookHttpClient {
    return new WebhookHttpClient({
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      allowPrivateUrls: config.allowPrivateWebhookUrls,
      userAgent: WEBHOOK_USER_AGENT,
      onRequestStart,
    });
  }

  constructor(private readonly options: WebhookHttpClientOptions) {
    // undici keeps connections alive by default. No interceptors: `request` then follows no redirects.
    this.agent = new Agent({
      connections: options.connectionsPerOrigin ?? 10,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // The address check runs on the resolved addresses of every new connection.
      connect: { lookup: guardedLookup(options.allowPrivateUrls), timeout: options.timeoutMs },
    });
  }

  async post(url: string, body: string | Buffer, headers: Record<string, string>): Promise<DeliveryResult> {
    const startedAt = performance.now();
    const result = (outcome: Omit<DeliveryResult, 'durationMs'>): DeliveryResult => ({
      ...outcome,
      durationMs: Math.round(performance.now() - startedAt),
    });
    const failure = (error: string) => result({ ok: false, status: null, responseBody: null, error });

    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return failure('invalid webhook URL');
    }
    const blocked = this.checkTarget(target);
    if (blocked) return failure(blocked);

    const finished = this.started(url);
    try {
      return await this.send(target, body, headers, result);
    } finally {
      finished();
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Counts a request to `url` as in flight until the returned function is called. */
  private started(url: string): () => void {
    const inFlight = (this.inFlight.get(url) ?? 0) + 1;
    this.inFlight.set(url, inFlight);
    this.options.onRequestStart?.(inFlight);
    return () => {
      const left = this.inFlight.get(url)! - 1;
      if (left === 0) this.inFlight.delete(url);
      else this.inFlight.set(url, left);
    };
  }

  /** The request under WEBHOOK_TIMEOUT_MS: one deadline for connect, headers and body together. */
  private async send(
    target: URL,
    body: string | Buffer,
    headers: Record<string, string>,
    result: (outcome: Omit<DeliveryResult, 'durationMs'>) => DeliveryResult,
  ): Promise<DeliveryResult> {
    // One deadline for the whole request, cleared as soon as it is over. AbortSignal.timeout would keep
    // its timer and signal alive for the full timeout after every request: tens of thousands at a time
    // in a busy dispatcher, for the garbage collector to walk.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException(`timeout after ${this.options.timeoutMs} ms`, 'TimeoutError')),
      this.options.timeoutMs,
    );
    timer.unref();
    try {
      return await this.sendUntil(deadline.signal, target, body, headers, result);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The request and its response body, read (or dropped) to the end, unless `signal` aborts first. */
  private async sendUntil(
    signal: AbortSignal,
    target: URL,
    body: string | Buffer,
    headers: Record<string, string>,
    result: (outcome: Omit<DeliveryResult, 'durationMs'>) => DeliveryResult,
  ): Promise<DeliveryResult> {
    let response: Dispatcher.ResponseData;
    try {
      response = await this.agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: this.headersFor(headers),
        body,
        signal,
      });
    } catch (error) {
      return result({ ok: false, status: null, responseBody: null, error: this.describe(error, signal) });
    }

    const status = response.statusCode;
    const excerpt = await readExcerpt(response);
    if (excerpt.error !== undefined) {
      return result({ ok: false, status, responseBody: excerpt.text, error: this.describe(excerpt.error, signal) });
    }
    const ok = status >= 200 && status < 300;
    const error = ok ? null : status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`;
    return result({ ok, status, responseBody: excerpt.text, error });
  }

  /** Why a URL must not be called, checked before any connection; names are checked after DNS by the lookup. */
  private checkTarget(target: URL): string | null {
    if (!this.options.allowPrivateUrls && target.protocol !== 'https:') return 'blocked: webhook URL must use https';
    if (target.protocol !== 'https:' && target.protocol !== 'http:') return 'blocked: webhook URL must use http(s)';
    if (this.options.allowPrivateUrls) return null;
    // net connects to IP literals without calling `lookup`, so they are checked here.
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const family = isIP(host);
    if (family !== 0 && isForbiddenAddress(host, family as 4 | 6)) return targetForbiddenError(host).message;
    return null;
  }

  private headersFor(headers: Record<string, string>): Record<string, string> {
    const merged: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (lower !== 'content-type' && lower !== 'user-agent') merged[name] = value;
    }
    merged['content-type'] = 'application/json';
    merged['user-agent'] = this.options.userAgent;
    return merged;
  }

  /** A short, stable message for the attempt record. */
  private describe(error: unknown, signal: AbortSignal): string {
    const { code, message, name } = errorFields(error);
    if (signal.aborted || name === 'TimeoutError' || (code !== undefined && timeoutCodes.has(code))) {
      return `timeout after ${this.options.timeoutMs} ms`;
    }
    if (code === TARGET_FORBIDDEN_CODE) return message;
    if (code !== undefined && code in errorLabels) return `${errorLabels[code]} (${code})`;
    if (code !== undefined && /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code)) {
      return `TLS error (${code})`;
    }
    const text = message || name || 'request failed';
    return (code ? `${text} (${code})` : text).slice(0, 200);
  }
}

/**
 * The first RESPONSE_EXCERPT_BYTES of the body as UTF-8 text. Small bodies are read to the end to keep the
 * connection reusable; a bigger one is dropped once the excerpt is in, which closes its connection.
 */
async function readExcerpt(response: Dispatcher.ResponseData): Promise<{ text: string; error?: unknown }> {
  const declaredLength = Number(response.headers['content-length'] ?? 0);
  const chunks: Buffer[] = [];
  let kept = 0;
  let seen = 0;
  let error: unknown;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (kept < RESPONSE_EXCERPT_BYTES) {
        const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - kept);
        chunks.push(part);
        kept += part.length;
      }
      seen += chunk.length;
      // Leaving the loop destroys the stream.
      if (kept >= RESPONSE_EXCERPT_BYTES && (seen > DRAIN_LIMIT_BYTES || declaredLength > DRAIN_LIMIT_BYTES)) break;
    }
  } catch (readError) {
    // Once the excerpt is in, the rest is only read for connection reuse, so its failure does not matter.
    if (kept < RESPONSE_EXCERPT_BYTES) error = readError;
  }
  // StringDecoder holds back a character cut at the byte limit; Postgres text cannot hold NUL.
  const text = new StringDecoder('utf8').write(Buffer.concat(chunks)).replace(/\0/g, '');
  return error === undefined ? { text } : { text, error };
}

function errorFields(error: unknown): { code?: string; message: string; name: string } {
  // Duck-typed: errors from node internals may come from another realm (as under Jest), failing instanceof.
  if (typeof error !== 'object' || error === null) return { message: String(error), name: '' };
  const fields = error as { code?: unknown; message?: unknown; name?: unknown; errors?: unknown };
  // With autoSelectFamily, net may report one AggregateError over the addresses it tried.
  if (fields.code === undefined && Array.isArray(fields.errors) && fields.errors.length > 0) {
    return errorFields(fields.errors[0]);
  }
  return {
    code: typeof fields.code === 'string' ? fields.code : undefined,
    message: typeof fields.message === 'string' ? fields.message : '',
    name: typeof fields.name === 'string' ? fields.name : '',
  };
}
