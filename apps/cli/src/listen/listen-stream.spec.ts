import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PayhookClient } from '@payhook/sdk';
import { ListenStream, type StreamedDelivery } from './listen-stream';

const delivery = (eventId: string) =>
  `id: ${eventId}\nevent: delivery\ndata: ${JSON.stringify({ eventId, headers: {}, body: '{}' })}\n\n`;

describe('the listen stream, while the local handler takes its time', () => {
  let server: Server;
  let client: PayhookClient;
  let stream: ServerResponse | undefined;

  beforeAll(async () => {
    // One delivery at first; the test writes the rest itself.
    server = createServer((_request, response) => {
      stream = response;
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write(`event: ready\ndata: {}\n\n${delivery('evt_1')}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`;
    client = { listenStreamRequest: () => ({ url, headers: {} }) } as unknown as PayhookClient;
  });
  afterAll(async () => {
    stream?.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  // The silence timer runs on the clock the test moves: no real second is waited, however busy the machine.
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('does not count the time spent forwarding as silence from payhook', async () => {
    const silenceLimitMs = 1_000;
    const forwarded: string[] = [];
    const drops: string[] = [];
    let forwarding!: () => void;
    const forwardingStarted = new Promise<void>((resolve) => (forwarding = resolve));
    let finishForwarding!: () => void;
    const forwardingDone = new Promise<void>((resolve) => (finishForwarding = resolve));
    let nextOutcome!: (outcome: string) => void;
    const outcome = new Promise<string>((resolve) => (nextOutcome = resolve));

    const listen = new ListenStream(
      client,
      'lsn_1',
      {
        onReady: () => undefined,
        onDelivery: async ({ eventId }: StreamedDelivery) => {
          forwarded.push(eventId);
          if (eventId === 'evt_1') {
            forwarding();
            await forwardingDone;
          } else {
            nextOutcome('read on');
          }
        },
        onDrop: (reason) => {
          drops.push(reason);
          nextOutcome('dropped');
        },
      },
      silenceLimitMs,
    );
    const running = listen.run();
    await forwardingStarted;
    // The local handler takes more than twice the limit; payhook's heartbeat waits unread meanwhile.
    // A silence timer left running would fire here and drop the connection.
    stream!.write(': still here\n\n');
    jest.advanceTimersByTime(2.5 * silenceLimitMs);
    finishForwarding();
    // The same connection goes on: the next delivery is read, not a drop.
    stream!.write(delivery('evt_2'));
    await expect(outcome).resolves.toBe('read on');
    listen.stop();
    await running;
    expect({ forwarded, drops }).toEqual({ forwarded: ['evt_1', 'evt_2'], drops: [] });
  });
});
