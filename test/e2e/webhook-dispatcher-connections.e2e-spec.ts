import type { INestApplication } from '@nestjs/common';
import { loadEnv } from '@payhook/config';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createWebhookDispatcher, PROBE_CONNECTIONS } from '../../apps/webhook-dispatcher/src/app.setup';
import { WebhookDispatcherEnv } from '../../apps/webhook-dispatcher/src/config/webhook-dispatcher.env';
import { pollUntil } from '../support/poll-until';
import { testAmqpNamespace, testAmqpUrl, testDatabaseUrl } from '../support/test-env';

/** A slowloris connection: it starts a request and never finishes its headers. */
function trickle(port: number): { socket: Socket; closed: () => boolean } {
  let closed = false;
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => undefined);
  // Read what the server sends (a 408), so that its closing the connection reaches us.
  socket.resume();
  socket.on('close', () => (closed = true));
  socket.on('connect', () => socket.write('GET /health HTTP/1.1\r\nHost: payhook\r\nX-Slow: '));
  return { socket, closed: () => closed };
}

/** Issue 25 (4): the dispatcher's health port cannot be held open either. */
describe('webhook-dispatcher health port connections', () => {
  let app: INestApplication;
  let port: number;
  const held: ReturnType<typeof trickle>[] = [];

  beforeAll(async () => {
    // A namespace of its own: this dispatcher must not consume other specs' deliveries.
    const env = loadEnv(WebhookDispatcherEnv, {
      DATABASE_URL: testDatabaseUrl(),
      AMQP_URL: testAmqpUrl(),
      AMQP_NAMESPACE: `${testAmqpNamespace()}_probe_conns`,
      NODE_ENV: 'test',
    });
    app = await createWebhookDispatcher(env, { logger: ['error'] });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const connection of held) connection.socket.destroy();
    await app.close();
  });

  it('closes trickling connections once their headers are overdue, however many there are', async () => {
    for (let i = 0; i < PROBE_CONNECTIONS + 20; i += 1) held.push(trickle(port));
    // The 20 past the cap at once; the rest once their headers are overdue (Node's default: 60 s + 30 s).
    await pollUntil(
      async () => held.filter((connection) => connection.closed()).length,
      (closed) => closed === held.length,
    );
  }, 60_000);
});
