import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardDelivery } from './forward-delivery';

describe('forwarding a delivery to the local handler', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((_, response) => response.writeHead(200).end('o\0k'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('reports the answer without NUL bytes, which payhook could not store', async () => {
    const answer = await forwardDelivery(url, { headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(answer).toEqual(expect.objectContaining({ responseStatus: 200, responseBody: 'ok', error: null }));
  });
});
