import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  receivedAt: number;
}

/** A delivery's Standard Webhooks headers that are there, as the standardwebhooks library takes them. */
export function standardWebhookHeaders(delivery: ReceivedWebhook): Record<string, string> {
  const names = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = delivery.headers[name];
      return typeof value === 'string' ? [[name, value]] : [];
    }),
  );
}

export type Responder = (
  delivery: ReceivedWebhook,
  index: number,
) => {
  status: number;
  body?: string;
  delayMs?: number;
  /** Answered only once this has settled (and delayMs has passed): the test decides when, not a clock. */
  until?: Promise<unknown>;
};

/** A merchant's webhook endpoint on 127.0.0.1 that records every request it gets. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private responder: Responder = () => ({ status: 200, body: 'ok' });

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const delivery = { headers: request.headers, rawBody: Buffer.concat(chunks), receivedAt: Date.now() };
        const index = receiver.received.push(delivery) - 1;
        const { status, body = '', delayMs = 0, until } = receiver.responder(delivery, index);
        const answer = () => response.writeHead(status, { 'content-type': 'text/plain' }).end(body);
        setTimeout(() => void (until ?? Promise.resolve()).then(answer, answer), delayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
  }

  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  forEvent(eventId: string): ReceivedWebhook[] {
    return this.received.filter((delivery) => delivery.headers['service-event-id'] === eventId);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
