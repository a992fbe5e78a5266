import type { Server } from 'node:http';
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { softFileLimit } from '../../apps/payments-api/src/http/connection-limits';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';

/** A slowloris connection: it starts a request and never finishes its headers. */
function trickle(port: number, localAddress: string): { socket: Socket; closed: () => boolean } {
  let closed = false;
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  socket.on('error', () => undefined);
  // Read what the server sends (a 408), so that its closing the connection reaches us.
  socket.resume();
  socket.on('close', () => (closed = true));
  socket.on('connect', () => socket.write('GET /health HTTP/1.1\r\nHost: payhook\r\nX-Slow: '));
  return { socket, closed: () => closed };
}

/** GET /health from `localAddress`: its status, or the error's code when the connection was refused. */
function health(port: number, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get({ host: '127.0.0.1', port, path: '/health', localAddress, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const portOf = (api: PaymentsApiHarness) => Number(new URL(api.baseUrl).port);

/**
 * Issue 25 (4): one client holding thousands of trickling connections took the API down. Each
 * loopback address (127.0.0.1, 127.0.0.2) stands for a client of its own.
 */
describe('connection limits (slowloris)', () => {
  describe('per client', () => {
    let api: PaymentsApiHarness;
    const held: ReturnType<typeof trickle>[] = [];

    beforeAll(async () => {
      // Long timeouts: here the held connections must outlast the test.
      api = await PaymentsApiHarness.start({
        MAX_CONNECTIONS_PER_CLIENT: '20',
        HTTP_HEADERS_TIMEOUT: '5m',
        HTTP_REQUEST_TIMEOUT: '5m',
      });
    });
    afterAll(async () => {
      for (const connection of held) connection.socket.destroy();
      await api.stop();
    });

    it('closes one client’s connections past its cap and still serves another client', async () => {
      const port = portOf(api);
      for (let i = 0; i < 50; i += 1) held.push(trickle(port, '127.0.0.1'));
      await pollUntil(
        async () => held.filter((connection) => connection.closed()).length,
        (closed) => closed >= 30,
      );

      expect(await health(port, '127.0.0.2')).toBe(200);
      expect(await health(port, '127.0.0.1')).not.toBe(200);
      // The 20 within the cap are still open (their timeouts are minutes away).
      expect(held.filter((connection) => connection.closed())).toHaveLength(30);

      // Once they go, the client is served again.
      for (const connection of held) connection.socket.destroy();
      await pollUntil(
        () => health(port, '127.0.0.1'),
        (status) => status === 200,
      );
    }, 120_000);

    it('takes no more connections than the process has file descriptors for', () => {
      const server = api.app.getHttpServer() as Server;
      expect(server.maxConnections).toBeLessThan(softFileLimit() ?? 1024);
    });
  });

  describe('timeouts', () => {
    let api: PaymentsApiHarness;

    beforeAll(async () => {
      api = await PaymentsApiHarness.start({ HTTP_HEADERS_TIMEOUT: '1s', HTTP_REQUEST_TIMEOUT: '1s' });
    });
    afterAll(() => api.stop());

    it('closes a connection that keeps trickling header bytes once HTTP_HEADERS_TIMEOUT has passed', async () => {
      const connection = trickle(portOf(api), '127.0.0.1');
      // One header byte every 100 ms: never idle, never done (Node's defaults allowed 60 s + 30 s).
      const dripping = setInterval(() => connection.socket.write('x'), 100);
      try {
        await pollUntil(async () => connection.closed(), Boolean, { timeoutMs: 30_000 });
      } finally {
        clearInterval(dripping);
        connection.socket.destroy();
      }
    }, 60_000);
  });
});
