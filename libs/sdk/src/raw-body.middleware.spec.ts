import { EventEmitter } from 'node:events';
import { type IncomingMessage, type ServerResponse } from 'node:http';

import {
  DEFAULT_RAW_BODY_LIMIT_BYTES,
  rawJsonBody,
  type RawBodyRequest,
  type RawBodyResponse,
} from './raw-body.middleware';

class FakeRequest extends EventEmitter implements RawBodyRequest {
  readableEnded = false;
  resumed = false;
  rawBody?: unknown;
  body?: unknown;

  constructor(readonly headers: Record<string, string | string[] | undefined> = {}) {
    super();
  }

  resume(): this {
    this.resumed = true;
    return this;
  }

  send(...chunks: Array<Buffer | string>): void {
    for (const chunk of chunks) this.emit('data', chunk);
    this.readableEnded = true;
    this.emit('end');
  }
}

class FakeResponse implements RawBodyResponse {
  statusCode = 200;
  headersSent = false;
  readonly headers = new Map<string, string | number>();
  body: string | undefined;

  setHeader(name: string, value: string | number): void {
    this.headers.set(name.toLowerCase(), value);
  }

  end(body?: string): void {
    this.headersSent = true;
    this.body = body;
  }
}

function run(req: FakeRequest, limitBytes?: number) {
  const res = new FakeResponse();
  const next = jest.fn();
  rawJsonBody(limitBytes === undefined ? {} : { limitBytes })(req, res, next);
  return { res, next };
}

describe('rawJsonBody', () => {
  it('defaults to a 1 MiB limit', () => {
    expect(DEFAULT_RAW_BODY_LIMIT_BYTES).toBe(1_048_576);
  });

  it('puts the exact bytes in rawBody and body, unparsed, then calls next once', () => {
    const req = new FakeRequest({ 'content-type': 'application/json' });
    const { res, next } = run(req);
    expect(next).not.toHaveBeenCalled();
    req.send(Buffer.from('{"id":'), Buffer.from(' "evt_1"}\n'));
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith();
    expect(Buffer.isBuffer(req.rawBody)).toBe(true);
    expect((req.rawBody as Buffer).toString()).toBe('{"id": "evt_1"}\n');
    expect(req.body).toBe(req.rawBody);
    expect(res.body).toBeUndefined();
  });

  it('keeps bytes that are not valid UTF-8 untouched', () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const req = new FakeRequest();
    run(req);
    req.send(bytes.subarray(0, 2), bytes.subarray(2));
    expect(req.rawBody).toEqual(bytes);
  });

  it('gives an empty Buffer for an empty body', () => {
    const req = new FakeRequest();
    const { next } = run(req);
    req.send();
    expect(req.rawBody).toEqual(Buffer.alloc(0));
    expect(next).toHaveBeenCalledWith();
  });

  it('accepts a body of exactly the limit', () => {
    const req = new FakeRequest();
    const { res, next } = run(req, 4);
    req.send('ab', 'cd');
    expect(next).toHaveBeenCalledWith();
    expect(res.statusCode).toBe(200);
  });

  it('answers 413 from Content-Length without buffering, once the rest is discarded, and never calls next', () => {
    const req = new FakeRequest({ 'content-length': '5' });
    const { res, next } = run(req, 4);
    expect(req.resumed).toBe(true);
    // Answering before the body is read would let the kernel reset the connection under the answer.
    expect(res.body).toBeUndefined();
    req.send('abcde');
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body ?? '')).toMatchObject({ error: { code: 'payload_too_large' } });
    expect(res.headers.get('connection')).toBeUndefined();
    expect(req.rawBody).toBeUndefined();
    expect(req.listenerCount('data')).toBe(0);
    expect(next).not.toHaveBeenCalled();
  });

  it('answers 413 at once and closes the connection when the declared body is far too large to discard', () => {
    const req = new FakeRequest({ 'content-length': String(10 * 1_048_576) });
    const { res, next } = run(req, 4);
    expect(res.statusCode).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(req.resumed).toBe(true);
    expect(req.listenerCount('data')).toBe(0);
    expect(next).not.toHaveBeenCalled();
  });

  it('answers 413 once a chunked body passes the limit, and stops buffering', () => {
    const req = new FakeRequest({ 'transfer-encoding': 'chunked' });
    const { res, next } = run(req, 4);
    req.emit('data', Buffer.from('abc'));
    req.emit('data', Buffer.from('de'));
    expect(res.body).toBeUndefined();
    req.send('more');
    expect(res.statusCode).toBe(413);
    expect(res.headers.get('connection')).toBeUndefined();
    expect(next).not.toHaveBeenCalled();
    expect(req.rawBody).toBeUndefined();
  });

  it('gives up discarding an endless body after 1 MiB: 413 and the connection closed', () => {
    const req = new FakeRequest({ 'transfer-encoding': 'chunked' });
    const { res } = run(req, 4);
    req.emit('data', Buffer.alloc(5));
    req.emit('data', Buffer.alloc(1_048_576));
    expect(res.body).toBeUndefined();
    req.emit('data', Buffer.alloc(1));
    expect(res.statusCode).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(req.listenerCount('data')).toBe(0);
  });

  it('answers nothing when the client goes away while the rest is discarded', () => {
    const req = new FakeRequest({ 'content-length': '5' });
    const { res, next } = run(req, 4);
    req.emit('aborted');
    req.send();
    expect(res.body).toBeUndefined();
    expect(next).not.toHaveBeenCalled();
  });

  it('passes a stream error to next once', () => {
    const req = new FakeRequest();
    const { next } = run(req);
    const failure = new Error('socket hang up');
    req.emit('error', failure);
    req.emit('end');
    expect(next).toHaveBeenCalledTimes(1);
    expect(next).toHaveBeenCalledWith(failure);
  });

  it('passes an aborted request to next as an error', () => {
    const req = new FakeRequest();
    const { next } = run(req);
    req.emit('aborted');
    expect(next).toHaveBeenCalledWith(expect.any(Error));
  });

  it('reuses rawBody a framework already kept (Nest rawBody: true)', () => {
    const req = new FakeRequest();
    req.rawBody = Buffer.from('{}');
    req.body = { parsed: true };
    const { next } = run(req);
    expect(req.body).toBe(req.rawBody);
    expect(next).toHaveBeenCalledWith();
  });

  it('fails loudly when a body parser already consumed the body', () => {
    const req = new FakeRequest();
    req.readableEnded = true;
    req.body = { parsed: true };
    const { next } = run(req);
    expect(next).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('before any') }));
  });

  it("fits Node's own request and response (and so Express's and Nest's)", () => {
    // A compile-time check: this only type-checks while the structural types stay compatible.
    const mount = (req: IncomingMessage, res: ServerResponse) => rawJsonBody()(req, res, () => undefined);
    expect(mount).toBeInstanceOf(Function);
  });

  it('rejects an invalid limit when it is set up', () => {
    expect(() => rawJsonBody({ limitBytes: -1 })).toThrow(RangeError);
    expect(() => rawJsonBody({ limitBytes: 1.5 })).toThrow(RangeError);
  });
});
