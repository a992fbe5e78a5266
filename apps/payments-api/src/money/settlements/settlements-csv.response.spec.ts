import express from 'express';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pollUntil } from '../../../../../test/support/poll-until';
import type { SettlementView } from './settlement.view';
import { sendSettlementsCsv } from './settlements-csv.response';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const row = (n: number): SettlementView => ({
  type: 'payment',
  paymentId: `pay_${n}`,
  refundId: null,
  orderId: `order-${n}`,
  livemode: false,
  currency: 'KRW',
  grossAmount: 10_000,
  feeBps: 250,
  feeAmount: 250,
  vatAmount: 25,
  netAmount: 9_725,
  salesDate: '2026-10-05',
  payoutStatus: 'scheduled',
  payoutDate: '2026-10-07',
  payoutRule: 'kr_public_holidays',
  completedAt: '2026-10-04T16:00:00.000Z',
});

describe('sendSettlementsCsv', () => {
  let server: Server;
  afterEach(() => new Promise((done) => server.close(done)));

  it('finishes when the client goes away while the next batch is read, instead of waiting for a close that already fired', async () => {
    // The reading is the test's: it stands at the second batch until the client is gone.
    const secondBatchAsked = deferred();
    const secondBatch = deferred<SettlementView[]>();
    async function* batches(): AsyncGenerator<SettlementView[]> {
      yield [row(1)];
      secondBatchAsked.resolve();
      yield await secondBatch.promise;
      yield [row(3)];
    }
    const responseClosed = deferred();
    let handler: 'pending' | 'finished' | 'failed' = 'pending';
    const app = express();
    app.get('/export', (_request, response) => {
      response.once('close', () => responseClosed.resolve());
      sendSettlementsCsv(response, 'day.csv', batches()).then(
        () => (handler = 'finished'),
        () => (handler = 'failed'),
      );
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));

    const { port } = server.address() as AddressInfo;
    const client = httpRequest({ host: '127.0.0.1', port, path: '/export' });
    client.on('error', () => undefined);
    const firstChunk = new Promise<string>((resolve) =>
      client.once('response', (response) => response.once('data', (chunk: Buffer) => resolve(chunk.toString()))),
    );
    client.end();
    expect(await firstChunk).toContain('payment_id');
    await secondBatchAsked.promise;
    client.destroy();
    await responseClosed.promise;
    secondBatch.resolve([row(2)]);

    await pollUntil(
      async () => handler,
      (state) => state !== 'pending',
    );
    expect(handler).toBe('finished');
  });
});
