import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PayhookClient, type PayhookFetch } from './payhook.client';

/** The merchant API's document, as payhook serves it at /v1/openapi.json. */
const DOCUMENT = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

interface Operation {
  method: string;
  path: string;
}

/** Every operation of the document by its operationId. */
const DOCUMENTED = new Map<string, Operation>(
  Object.entries(DOCUMENT.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      operation.operationId ? [[operation.operationId, { method: method.toUpperCase(), path }] as const] : [],
    ),
  ),
);

/** The SDK's call for each operation, with made-up ids: what it sends is what is checked. */
const CALLS: Record<string, (client: PayhookClient) => Promise<unknown> | { url: string }> = {
  Payments_create: (c) =>
    c.createPayment({ orderId: 'o', customerId: 'c', amount: 1, currency: 'KRW', returnUrl: 'https://s.example' }),
  Payments_list: (c) => c.listPayments({ status: ['pending', 'completed'], limit: 5 }),
  Payments_get: (c) => c.getPayment('pay_1'),
  Payments_cancel: (c) => c.cancelPayment('pay_1'),
  PaymentRefunds_create: (c) => c.createRefund('pay_1', { amount: 1 }),
  Refunds_list: (c) => c.listRefunds({ paymentId: 'pay_1', status: 'succeeded' }),
  Refunds_get: (c) => c.getRefund('rfd_1'),
  PaymentCashReceipts_request: (c) =>
    c.createCashReceipt('pay_1', { type: 'income_deduction', identityNumber: '01012345678' }),
  CashReceipts_list: (c) => c.listCashReceipts({ paymentId: 'pay_1', status: 'issued' }),
  CashReceipts_get: (c) => c.getCashReceipt('crc_1'),
  Escrow_ship: (c) => c.shipEscrow('pay_1', { carrier: 'CJ대한통운', trackingNumber: '6901-2345-6789' }),
  Events_list: (c) => c.listEvents({ type: 'payment.completed', paymentId: 'pay_1' }),
  Events_get: (c) => c.getEvent('evt_1'),
  Events_redeliver: (c) => c.redeliverEvent('evt_1', { endpointId: 'we_1' }),
  Events_recover: (c) => c.recoverEvents({ since: new Date('2030-01-01T00:00:00Z') }),
  Settlements_list: (c) => c.listSettlements({ from: '2030-01-01', to: '2030-01-31' }),
  Settlements_export: (c) => c.exportSettlements('2030-01-02'),
  IntegrationTests_start: (c) => c.startIntegrationTest(),
  IntegrationTests_get: (c) => c.getIntegrationTest('itr_1'),
  WebhookEndpoints_get: (c) => c.getModeWebhookEndpoint(),
  WebhookEndpoints_put: (c) => c.putModeWebhookEndpoint({ url: 'https://s.example/hooks' }),
  WebhookEndpoints_rotateSecret: (c) => c.rotateModeWebhookEndpointSecret({ previousSecretExpiresIn: 60 }),
  WebhookEndpointResources_create: (c) => c.createWebhookEndpoint({ url: 'https://s.example/hooks' }),
  WebhookEndpointResources_list: (c) => c.listWebhookEndpoints({ limit: 2 }),
  WebhookEndpointResources_get: (c) => c.getWebhookEndpoint('we_1'),
  WebhookEndpointResources_update: (c) => c.updateWebhookEndpoint('we_1', { description: 'x' }),
  WebhookEndpointResources_delete: (c) => c.deleteWebhookEndpoint('we_1'),
  WebhookEndpointResources_rotateSecret: (c) => c.rotateWebhookEndpointSecret('we_1'),
  ListenSessions_create: (c) => c.createListenSession(),
  ListenSessions_get: (c) => c.getListenSession('lsn_1'),
  ListenSessions_end: (c) => c.endListenSession('lsn_1'),
  ListenSessions_reportAttempt: (c) =>
    c.reportListenAttempt('lsn_1', {
      eventId: 'evt_1',
      responseStatus: 200,
      responseBody: 'ok',
      error: null,
      durationMs: 1,
    }),
  // A stream that stays open: the SDK gives its request for a streaming reader of the caller's own.
  ListenSessions_stream: (c) => c.listenStreamRequest('lsn_1'),
  TestHelpers_complete: (c) => c.moveTestPayment('pay_1', 'complete'),
  TestHelpers_fail: (c) => c.moveTestPayment('pay_1', 'fail'),
  TestHelpers_expire: (c) => c.moveTestPayment('pay_1', 'expire'),
  RefundTestHelpers_failedRefund: (c) => c.createFailedTestRefund('pay_1'),
  DepositTestHelpers_deposit: (c) => c.createTestDeposit({ amount: 1, bankTransactionId: 'bank-1' }),
  DepositTestHelpers_depositForPayment: (c) => c.depositForTestPayment('pay_1'),
  EscrowTestHelpers_confirm: (c) => c.confirmTestEscrow('pay_1'),
  EscrowTestHelpers_reject: (c) => c.rejectTestEscrow('pay_1', 'damaged'),
  VoucherTestHelpers_issue: (c) => c.issueTestVoucher({ faceValue: 1000 }),
};

/** Whether a request's path is an instance of the document's path template (`{id}` is one segment). */
const matches = (template: string, path: string) =>
  new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);

describe('PayhookClient covers the merchant API', () => {
  it('has a call for every operation of docs/openapi.json, and none for an operation it does not have', () => {
    expect(Object.keys(CALLS).sort()).toEqual([...DOCUMENTED.keys()].sort());
  });

  it.each([...DOCUMENTED])('%s: sends its method and path', async (operationId, documented) => {
    const sent: Operation[] = [];
    const fetch: PayhookFetch = async (url, init) => {
      sent.push({ method: init.method, path: new URL(url).pathname });
      const csv = init.headers.Accept === 'text/csv';
      return new Response(csv ? 'salesDate\n' : JSON.stringify({ data: {} }), { status: 200 });
    };
    const client = new PayhookClient({ apiKey: 'svc_test_x', baseUrl: 'http://payhook.test', fetch, maxRetries: 0 });
    const call = CALLS[operationId](client);
    if ('url' in call) sent.push({ method: 'GET', path: new URL(call.url).pathname });
    else await call;

    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe(documented.method);
    expect({ path: sent[0].path, matches: matches(documented.path, sent[0].path) }).toEqual({
      path: sent[0].path,
      matches: true,
    });
  });

  it('sends only the parameters a list operation has, whatever else the query object holds', async () => {
    const urls: string[] = [];
    const fetch: PayhookFetch = async (url) => {
      urls.push(url);
      return new Response(JSON.stringify({ data: [], hasMore: false, nextCursor: null }), { status: 200 });
    };
    const client = new PayhookClient({ apiKey: 'svc_test_x', baseUrl: 'http://payhook.test', fetch, maxRetries: 0 });
    const query = { limit: 5, page: 2, sort: 'amount' };
    await client.listPayments(query);
    await client.listEvents(query);
    await client.listRefunds(query);
    await client.listCashReceipts(query);
    await client.listSettlements(query);
    await client.listWebhookEndpoints(query);
    expect(urls.map((url) => new URL(url).search)).toEqual(Array(6).fill('?limit=5'));
  });
});
