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
    server = createServer((_, response) => {
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
  });
  afterAll(async () => {
    for (const response of responses) response.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('does not count the time spent forwarding as silence from payhook', async () => {
    const drops: string[] = [];
    const stream = new ListenStream(
      client,
      'lsn_1',
      {
        onReady: () => undefined,
        // Longer than the silence limit below.
        onDelivery: () => new Promise((resolve) => setTimeout(resolve, 600)),
        onDrop: (reason) => drops.push(reason),
      },
      200,
    );
    const running = stream.run();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stream.stop();
    await running;
    expect(drops).toEqual([]);
  });
});
