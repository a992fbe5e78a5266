/** 1 MiB: payment.completed bodies are well under 1 KiB; anything near this is not from payhook. */
export const DEFAULT_RAW_BODY_LIMIT_BYTES = 1_048_576;
/** How much of an over-limit body is read and discarded so that the 413 reaches the client. */
const MAX_DRAIN_BYTES = 1_048_576;

/**
 * The parts of a Node request (express.Request, http.IncomingMessage) the middleware uses.
 * Structural, so the SDK needs neither Express nor Nest.
 */
export interface RawBodyRequest {
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end' | 'aborted', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  removeListener(event: 'end' | 'aborted', listener: () => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
  resume(): unknown;
  /** Set by Node once the body has been read to the end (by us or by a parser that ran earlier). */
  readonly readableEnded?: boolean;
  rawBody?: unknown;
  body?: unknown;
}

/** The parts of a Node response (express.Response, http.ServerResponse) the middleware uses. */
export interface RawBodyResponse {
  statusCode: number;
  readonly headersSent?: boolean;
  setHeader(name: string, value: string | number): unknown;
  end(body?: string): unknown;
}

/** What the middleware leaves on the request: the exact bytes received, in `rawBody` and in `body`. */
export interface RequestWithRawBody {
  rawBody: Buffer;
  body: Buffer;
}

export type RawBodyMiddleware = (req: RawBodyRequest, res: RawBodyResponse, next: (error?: unknown) => void) => void;

export interface RawJsonBodyOptions {
  /** Largest body accepted; larger ones get 413 without being buffered. */
  limitBytes?: number;
}

/**
 * Reads the request body as raw bytes, without parsing, so verifyWebhook can check the signature over exactly
 * what payhook sent. Mount it on the webhook route only, before any JSON parser:
 * `app.use('/webhooks', rawJsonBody())` (Express, or Nest's `app.use` in main.ts).
 * A body over `limitBytes` is answered with 413 (after the rest of it is discarded); the handler never runs.
 */
export function rawJsonBody({ limitBytes = DEFAULT_RAW_BODY_LIMIT_BYTES }: RawJsonBodyOptions = {}): RawBodyMiddleware {
  if (!Number.isSafeInteger(limitBytes) || limitBytes < 0) {
    throw new RangeError('limitBytes must be a non-negative integer');
  }

  return (req, res, next) => {
    // Nest's `rawBody: true` (or another copy of this middleware) already kept the bytes: reuse them.
    if (Buffer.isBuffer(req.rawBody)) {
      req.body = req.rawBody;
      next();
      return;
    }
    if (req.readableEnded === true) {
      next(new Error('rawJsonBody(): the request body was already consumed; mount it before any body parser'));
      return;
    }

    const declared = req.headers['content-length'];
    if (typeof declared === 'string' && /^\d+$/.test(declared) && Number(declared) > limitBytes) {
      rejectTooLarge(req, res, limitBytes, Number(declared));
      return;
    }

    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;

    const cleanUp = () => {
      settled = true;
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('aborted', onAborted);
    };
    const onData = (chunk: Buffer | string) => {
      if (settled) return;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      received += bytes.length;
      if (received > limitBytes) {
        // Chunked bodies declare no length: stop buffering the moment the limit is passed.
        cleanUp();
        rejectTooLarge(req, res, limitBytes);
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      if (settled) return;
      cleanUp();
      const body = Buffer.concat(chunks, received);
      req.rawBody = body;
      req.body = body;
      next();
    };
    const onError = (error: Error) => {
      if (settled) return;
      cleanUp();
      next(error);
    };
    const onAborted = () => onError(new Error('rawJsonBody(): the client aborted the request'));

    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  };
}

/**
 * Answers 413. The rest of the body is read and thrown away first: closing a socket that still has unread
 * request bytes makes the kernel reset the connection, and the client may lose the answer. A body that goes
 * on for more than MAX_DRAIN_BYTES past that point is not worth reading: it is answered at once and the
 * connection closed.
 */
function rejectTooLarge(req: RawBodyRequest, res: RawBodyResponse, limitBytes: number, remaining?: number): void {
  let done = false;
  let drained = 0;
  const finish = (closeConnection: boolean) => {
    if (done) return;
    done = true;
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onGone);
    req.removeListener('aborted', onGone);
    sendTooLarge(res, limitBytes, closeConnection);
  };
  const onData = (chunk: Buffer | string) => {
    drained += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (drained > MAX_DRAIN_BYTES) finish(true);
  };
  const onEnd = () => finish(false);
  // The client is gone: there is nobody left to answer.
  const onGone = () => {
    done = true;
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
  };

  if (req.readableEnded === true) {
    finish(false);
  } else if (remaining !== undefined && remaining > MAX_DRAIN_BYTES) {
    finish(true);
  } else {
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('aborted', onGone);
  }
  // Flowing with no other listener: whatever still arrives is discarded, never buffered.
  req.resume();
}

function sendTooLarge(res: RawBodyResponse, limitBytes: number, closeConnection: boolean): void {
  if (res.headersSent === true) return;
  const body = JSON.stringify({
    error: { code: 'payload_too_large', message: `Request body is larger than ${limitBytes} bytes` },
  });
  res.statusCode = 413;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (closeConnection) res.setHeader('Connection', 'close');
  res.end(body);
}
