import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PayhookClient } from '@payhook/sdk';
import { ListenStream } from './listen-stream';

describe('the listen stream, while the local handler takes its time', () => {
  let server: Server;
  let client: PayhookClient;
  const responses: ServerResponse[] = [];

  beforeAll(async () => {
    // One delivery, then only heartbeats, which the CLI cannot read while it forwards.
    server = createServer((request, response) => {
      if (request.url === '/warm-up') return void response.writeHead(204).end();
      responses.push(response);
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write('event: ready\ndata: {}\n\n');
      response.write(
        `id: evt_1\nevent: delivery\ndata: ${JSON.stringify({ eventId: 'evt_1', headers: {}, body: '{}' })}\n\n`,
      );
      const heartbeat = setInterval(() => response.write(': still here\n\n'), 50);
      response.on('close', () => clearInterval(heartbeat));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`;
    client = { listenStreamRequest: () => ({ url, headers: {} }) } as unknown as PayhookClient;
    // The first fetch of a process loads Node's HTTP client, which takes a while on a busy machine:
    // not inside the silence limit of the stream under test.
    await fetch(new URL('/warm-up', url));
  });
  afterAll(async () => {
    for (const response of responses) response.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('does not count the time spent forwarding as silence from payhook', async () => {
    // A limit far above the heartbeats' 50 ms, so that only the forwarding could reach it; the local
    // handler takes more than twice as long, so a silence timer left running would have fired.
    const silenceLimitMs = 1_000;
    const drops: string[] = [];
    let forwarded!: () => void;
    const forwardedOnce = new Promise<void>((resolve) => (forwarded = resolve));
    const stream = new ListenStream(
      client,
      'lsn_1',
      {
        onReady: () => undefined,
        onDelivery: async () => {
          await new Promise((resolve) => setTimeout(resolve, 2.5 * silenceLimitMs));
          forwarded();
        },
        onDrop: (reason) => drops.push(reason),
      },
      silenceLimitMs,
    );
    const running = stream.run();
    await forwardedOnce;
    // A few heartbeats read after the forwarding, then Ctrl-C.
    await new Promise((resolve) => setTimeout(resolve, 300));
    stream.stop();
    await running;
    expect(drops).toEqual([]);
  });
});
