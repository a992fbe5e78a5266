import type { LoggerService } from '@nestjs/common';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { LISTEN_BACKLOG, softFileLimit } from '../../apps/payments-api/src/platform/http/connection-limits';
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

/** The app's warnings, as Nest hands them to its logger. */
class RecordedWarnings implements LoggerService {
  readonly lines: string[] = [];
  log(): void {}
  error(): void {}
  warn(message: unknown): void {
    this.lines.push(String(message));
  }
}

const portOf = (api: PaymentsApiHarness) => Number(new URL(api.baseUrl).port);

/**
 * Issue 25 (4): one client holding thousands of trickling connections took the API down. Each
 * loopback address (127.0.0.1, 127.0.0.2) stands for a client of its own.
 */
describe('connection limits (slowloris)', () => {
  // With a hop count, every direct peer would be "trusted": the cap must still hold for each of them.
  describe.each<Record<string, string>>([{}, { TRUST_PROXY: '1' }])('per client (%j)', (trustProxy) => {
    let api: PaymentsApiHarness;
    const held: ReturnType<typeof trickle>[] = [];
    const warnings = new RecordedWarnings();

    beforeAll(async () => {
      // Long timeouts: here the held connections must outlast the test.
      api = await PaymentsApiHarness.start(
        { ...trustProxy, MAX_CONNECTIONS_PER_CLIENT: '20', HTTP_HEADERS_TIMEOUT: '5m', HTTP_REQUEST_TIMEOUT: '5m' },
        warnings,
      );
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

      // The operator is told once (not 31 times), with the client's network and not its address.
      const capWarnings = warnings.lines.filter((line) => line.includes('MAX_CONNECTIONS_PER_CLIENT'));
      expect(capWarnings).toEqual([expect.stringContaining('client 127.0.0.0/24 holds 20 connections')]);
      expect(capWarnings[0]).toContain('TRUST_PROXY does not name by address');
      expect(capWarnings[0]).not.toContain('127.0.0.1');

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

    it('queues as many new connections as the kernel allows, not Node’s 511, for a burst to wait in', () => {
      // For a listening socket, ss reports the size of its accept queue as Send-Q.
      const [, , acceptQueue] = execFileSync('ss', ['-Hltn', `sport = :${portOf(api)}`], { encoding: 'utf8' })
        .trim()
        .split(/\s+/);
      const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
      expect(Number(acceptQueue)).toBe(Math.min(somaxconn, LISTEN_BACKLOG));
    });
  });

  describe('a proxy named by address in TRUST_PROXY', () => {
    let api: PaymentsApiHarness;
    const held: ReturnType<typeof trickle>[] = [];

    beforeAll(async () => {
      api = await PaymentsApiHarness.start({
        TRUST_PROXY: '127.0.0.1',
        MAX_CONNECTIONS_PER_CLIENT: '20',
        HTTP_HEADERS_TIMEOUT: '5m',
        HTTP_REQUEST_TIMEOUT: '5m',
      });
    });
    afterAll(async () => {
      for (const connection of held) connection.socket.destroy();
      await api.stop();
    });

    it('is not capped per client: it carries every client', async () => {
      const port = portOf(api);
      for (let i = 0; i < 30; i += 1) held.push(trickle(port, '127.0.0.1'));
      const server = api.app.getHttpServer() as Server;
      const open = () => new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
      await pollUntil(open, (count) => count >= 30);
      expect(held.filter((connection) => connection.closed())).toHaveLength(0);
      expect(await health(port, '127.0.0.1')).toBe(200);
    }, 120_000);
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
