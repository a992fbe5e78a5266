import { type IncomingMessage, type RequestListener, type Server, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo, type Socket } from 'node:net';
import { WebhookHttpClient, type WebhookHttpClientOptions } from './webhook.http-client';

interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('WebhookHttpClient', () => {
  const servers: Server[] = [];
  const clients: WebhookHttpClient[] = [];

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await Promise.all(
      servers.splice(0).map((server) => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      }),
    );
  });

  /** A local endpoint that records every request and every TCP connection it accepts. */
  async function startEndpoint(respond: (request: IncomingMessage, response: ServerResponse) => void) {
    const received: Received[] = [];
    const connections: Socket[] = [];
    const listener: RequestListener = (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        respond(request, response);
      });
    };
    const server = createServer(listener);
    server.on('connection', (socket: Socket) => connections.push(socket));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { port, url: `http://127.0.0.1:${port}`, received, connections };
  }

  function client(options: Partial<WebhookHttpClientOptions> = {}) {
    const created = new WebhookHttpClient({
      timeoutMs: 2_000,
      allowPrivateUrls: true,
      userAgent: 'payhook-webhooks/test',
      ...options,
    });
    clients.push(created);
    return created;
  }

  const event = JSON.stringify({ id: 'evt_1', type: 'payment.completed' });

  it('reports a 2xx as ok with the body, sending the headers given plus content type and user agent', async () => {
    const endpoint = await startEndpoint((_request, response) => response.writeHead(200).end('{"received":true}'));
    const result = await client().post(`${endpoint.url}/hooks?x=1`, event, {
      'Service-Event-Id': 'evt_1',
      'Content-Type': 'text/plain',
    });

    expect(result).toEqual({
      ok: true,
      status: 200,
      responseBody: '{"received":true}',
      error: null,
      durationMs: expect.any(Number),
    });
    expect(endpoint.received).toHaveLength(1);
    const [request] = endpoint.received;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks?x=1');
    expect(request.body).toBe(event);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('payhook-webhooks/test');
    expect(request.headers['service-event-id']).toBe('evt_1');
  });

  it('reports a 500 as a failure with its status and body', async () => {
    const endpoint = await startEndpoint((_request, response) => response.writeHead(500).end('boom'));
    const result = await client().post(endpoint.url, event, {});
    expect(result).toMatchObject({ ok: false, status: 500, responseBody: 'boom', error: 'HTTP 500' });
  });

  it('does not follow a redirect', async () => {
    const endpoint = await startEndpoint((request, response) => {
      if (request.url === '/hooks') response.writeHead(302, { location: '/elsewhere' }).end();
      else response.writeHead(200).end('followed');
    });
    const result = await client().post(`${endpoint.url}/hooks`, event, {});

    expect(result).toMatchObject({ ok: false, status: 302, responseBody: '', error: 'redirect (302) not followed' });
    expect(endpoint.received.map(({ path }) => path)).toEqual(['/hooks']);
  });

  it('gives up on an endpoint that never answers after timeoutMs', async () => {
    const endpoint = await startEndpoint(() => undefined);
    const result = await client({ timeoutMs: 300 }).post(endpoint.url, event, {});

    expect(result).toMatchObject({ ok: false, status: null, responseBody: null, error: 'timeout after 300 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(250);
    // Far below undici's own 300 s limits: this one gave up, however busy the machine.
    expect(result.durationMs).toBeLessThan(30_000);
  });

  it('also times out when the headers arrive but the body stalls', async () => {
    const endpoint = await startEndpoint((_request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('partial');
    });
    // Long enough for the connection, the headers and the first chunk on a busy machine; the body never ends.
    const result = await client({ timeoutMs: 1_500 }).post(endpoint.url, event, {});
    expect(result).toMatchObject({ ok: false, status: 200, responseBody: 'partial', error: 'timeout after 1500 ms' });
  });

  it('reports a refused connection', async () => {
    const endpoint = await startEndpoint(() => undefined);
    const server = servers.pop();
    await new Promise((resolve) => server?.close(resolve));

    const result = await client().post(endpoint.url, event, {});
    expect(result).toMatchObject({
      ok: false,
      status: null,
      responseBody: null,
      error: 'connection refused (ECONNREFUSED)',
    });
  });

  it('keeps only the first 1 KiB of the response body', async () => {
    const endpoint = await startEndpoint((_request, response) => response.writeHead(200).end('x'.repeat(5_000)));
    const result = await client().post(endpoint.url, event, {});
    expect(result.ok).toBe(true);
    expect(result.responseBody).toBe('x'.repeat(1024));
  });

  it('does not cut a UTF-8 character in half at the limit', async () => {
    const endpoint = await startEndpoint((_request, response) => response.writeHead(400).end(`a${'é'.repeat(600)}`));
    const result = await client().post(endpoint.url, event, {});
    expect(result.responseBody).toBe(`a${'é'.repeat(511)}`);
    expect(Buffer.byteLength(result.responseBody ?? '')).toBe(1023);
  });

  it('stops reading a huge body and can still deliver afterwards', async () => {
    const huge = Buffer.alloc(8 * 1024 * 1024, 'y');
    const endpoint = await startEndpoint((request, response) => {
      if (request.url === '/huge') response.writeHead(200).end(huge);
      else response.writeHead(204).end();
    });
    const subject = client();
    const first = await subject.post(`${endpoint.url}/huge`, event, {});
    expect(first).toMatchObject({ ok: true, status: 200, responseBody: 'y'.repeat(1024), error: null });
    await expect(subject.post(`${endpoint.url}/small`, event, {})).resolves.toMatchObject({ ok: true, status: 204 });
  });

  it('reuses one kept-alive connection for sequential posts', async () => {
    const endpoint = await startEndpoint((_request, response) => response.writeHead(200).end('ok'.repeat(1_000)));
    // One connection per origin: without keep-alive, every post would still need a new one.
    const subject = client({ connectionsPerOrigin: 1 });
    for (let i = 0; i < 3; i++) {
      await expect(subject.post(endpoint.url, event, {})).resolves.toMatchObject({ ok: true });
    }
    expect(endpoint.received).toHaveLength(3);
    expect(endpoint.connections).toHaveLength(1);
  });

  it('does not open a connection per post with the default pool', async () => {
    const endpoint = await startEndpoint((_request, response) => response.writeHead(204).end());
    const subject = client();
    for (let i = 0; i < 10; i++) {
      await expect(subject.post(endpoint.url, event, {})).resolves.toMatchObject({ ok: true });
    }
    // undici checks an idle socket for a pending close on the next tick, so a post sent at once may take a second one.
    expect(endpoint.connections.length).toBeLessThanOrEqual(2);
  });

  describe('without private URLs', () => {
    it('refuses http:// before connecting', async () => {
      const endpoint = await startEndpoint((_request, response) => response.writeHead(200).end());
      const result = await client({ allowPrivateUrls: false }).post(endpoint.url, event, {});

      expect(result).toMatchObject({
        ok: false,
        status: null,
        responseBody: null,
        error: 'blocked: webhook URL must use https',
      });
      expect(endpoint.connections).toHaveLength(0);
    });

    it('refuses a host name that resolves to a loopback address, after DNS and before connecting', async () => {
      const endpoint = await startEndpoint((_request, response) => response.writeHead(200).end());
      const result = await client({ allowPrivateUrls: false }).post(`https://localhost:${endpoint.port}/`, event, {});

      expect(result).toMatchObject({
        ok: false,
        status: null,
        responseBody: null,
        error: 'blocked: localhost resolves to a private or reserved address',
      });
      expect(endpoint.connections).toHaveLength(0);
    });

    it.each(['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '2130706433'])(
      'refuses the IP literal %s, which never reaches DNS',
      async (host) => {
        const endpoint = await startEndpoint((_request, response) => response.writeHead(200).end());
        const result = await client({ allowPrivateUrls: false }).post(`https://${host}:${endpoint.port}/`, event, {});

        expect(result.ok).toBe(false);
        expect(result.error).toMatch(/^blocked: .* resolves to a private or reserved address$/);
        expect(endpoint.connections).toHaveLength(0);
      },
    );
  });

  it('tells, as each request starts, how many to its URL are in flight until it finished or failed', async () => {
    // Until `finish`, answers send their headers and only a first part of their bodies.
    let finish = false;
    const held: ServerResponse[] = [];
    let allHeld: () => void = () => undefined;
    const threeHeld = new Promise<void>((resolve) => (allHeld = resolve));
    const endpoint = await startEndpoint((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      if (finish) return void response.end('all of it');
      response.write('part one, ');
      if (held.push(response) === 3) allHeld();
    });
    const told: number[] = [];
    const counting = client({ onRequestStart: (inFlight) => told.push(inFlight) });

    const posts = ['/a', '/a', '/b'].map((path) => counting.post(`${endpoint.url}${path}`, event, {}));
    await threeHeld;
    // Headers sent, bodies not yet read to the end: still in flight until then.
    posts.push(counting.post(`${endpoint.url}/a`, event, {}));
    expect(told).toEqual([1, 2, 1, 3]);

    finish = true;
    for (const response of held) response.end(' part two');
    expect((await Promise.all(posts)).every((result) => result.ok)).toBe(true);
    await counting.post(`${endpoint.url}/a`, event, {});
    // A request that fails (port 1: nothing listens) is no longer in flight either.
    expect((await counting.post('http://127.0.0.1:1/a', event, {})).ok).toBe(false);
    expect((await counting.post('http://127.0.0.1:1/a', event, {})).ok).toBe(false);
    expect(told).toEqual([1, 2, 1, 3, 1, 1, 1]);
  });
});
