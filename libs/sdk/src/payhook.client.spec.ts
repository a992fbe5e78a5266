import { type CashReceiptView, type CreatedPaymentView, type PaymentView } from '@payhook/contracts';

import {
  PayhookApiError,
  PayhookClient,
  PayhookConnectionError,
  type CreatePaymentBody,
  type PayhookFetch,
} from './payhook.client';

const BODY: CreatePaymentBody = {
  orderId: 'order-1001',
  customerId: 'customer-7',
  amount: 15000,
  currency: 'KRW',
  returnUrl: 'https://shop.example/orders/1001/return',
};

const CREATED: CreatedPaymentView = {
  id: 'pay_9hG3kL2mN8pQ4rS7tV1wX5yZ',
  orderId: 'order-1001',
  amount: 15000,
  currency: 'KRW',
  status: 'pending',
  payUrl: 'http://localhost:3000/p/abc',
  expiresAt: '2030-01-01T00:30:00.000Z',
};

const PAYMENT: PaymentView = {
  ...CREATED,
  createdAt: '2030-01-01T00:00:00.000Z',
  completedAt: null,
  livemode: false,
  refundedAmount: 0,
  taxFreeAmount: 0,
  vat: 1364,
  suppliedAmount: 13636,
  metadata: {},
  escrow: null,
};

type Call = { url: string; method: string; headers: Record<string, string>; body?: string };
type Reply = Response | Error;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', 'Request-Id': 'req_header', ...headers },
  });
}

function apiError(status: number, code: string, extra: Record<string, unknown> = {}, headers = {}): Response {
  return json(
    status,
    { error: { type: 'x', code, message: `${code} message`, requestId: 'req_body', ...extra } },
    headers,
  );
}

/** A fetch that answers from a script, one reply per call, and records what it was sent. */
function fakeFetch(...replies: Reply[]) {
  const calls: Call[] = [];
  const fetch = jest.fn<ReturnType<PayhookFetch>, Parameters<PayhookFetch>>(async (url, init) => {
    calls.push({ url, method: init.method, headers: init.headers, body: init.body });
    const reply = replies.shift();
    if (reply === undefined) throw new Error('fake fetch: no reply scripted');
    if (reply instanceof Error) throw reply;
    return reply;
  });
  return { fetch, calls };
}

function client(fetch: PayhookFetch, options: Partial<ConstructorParameters<typeof PayhookClient>[0]> = {}) {
  return new PayhookClient({ apiKey: 'svc_test_abc', fetch, retryBaseDelayMs: 1, ...options });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('PayhookClient', () => {
  describe('createPayment', () => {
    it('POSTs the body with auth, JSON and an Idempotency-Key, and returns the unwrapped payment', async () => {
      const { fetch, calls } = fakeFetch(json(201, { data: CREATED }));
      await expect(client(fetch, { baseUrl: 'http://api.test/' }).createPayment(BODY)).resolves.toEqual(CREATED);
      expect(calls).toHaveLength(1);
      const [call] = calls;
      expect(call.url).toBe('http://api.test/v1/payments');
      expect(call.method).toBe('POST');
      expect(JSON.parse(call.body ?? '')).toEqual(BODY);
      expect(call.headers).toMatchObject({
        Authorization: 'Bearer svc_test_abc',
        'Content-Type': 'application/json',
        Accept: 'application/json',
      });
      expect(call.headers['User-Agent']).toMatch(/^payhook-node\//);
      expect(call.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('uses the caller-given Idempotency-Key', async () => {
      const { fetch, calls } = fakeFetch(json(201, { data: CREATED }));
      await client(fetch).createPayment(BODY, { idempotencyKey: 'order-1001' });
      expect(calls[0].headers['Idempotency-Key']).toBe('order-1001');
    });

    it('makes a fresh random key per call', async () => {
      const { fetch, calls } = fakeFetch(json(201, { data: CREATED }), json(201, { data: CREATED }));
      const payhook = client(fetch);
      await payhook.createPayment(BODY);
      await payhook.createPayment(BODY);
      expect(calls[0].headers['Idempotency-Key']).not.toBe(calls[1].headers['Idempotency-Key']);
    });

    it('sends the same generated Idempotency-Key and body on every retry', async () => {
      const { fetch, calls } = fakeFetch(
        new TypeError('fetch failed'),
        apiError(500, 'internal_error'),
        apiError(409, 'idempotency_key_in_use'),
        json(201, { data: CREATED }),
      );
      await expect(client(fetch).createPayment(BODY)).resolves.toEqual(CREATED);
      expect(calls).toHaveLength(4);
      const keys = new Set(calls.map((call) => call.headers['Idempotency-Key']));
      expect(keys.size).toBe(1);
      expect(new Set(calls.map((call) => call.body)).size).toBe(1);
    });

    it.each([
      [400, 'parameter_invalid'],
      [401, 'api_key_invalid'],
      [403, 'live_mode_locked'],
      [404, 'resource_not_found'],
      [409, 'order_already_active'],
      [413, 'payload_too_large'],
      [422, 'idempotency_key_reused'],
    ])('does not retry %i %s', async (status, code) => {
      const { fetch, calls } = fakeFetch(apiError(status, code, { param: 'amount' }));
      const error = await rejection(client(fetch).createPayment(BODY));
      expect(calls).toHaveLength(1);
      expect(error).toBeInstanceOf(PayhookApiError);
      expect(error).toMatchObject({
        name: 'PayhookApiError',
        status,
        code,
        message: `${code} message`,
        param: 'amount',
        requestId: 'req_body',
      });
    });

    it('gives up after maxRetries and throws the last API error', async () => {
      const { fetch, calls } = fakeFetch(
        apiError(503, 'internal_error'),
        apiError(502, 'internal_error'),
        apiError(500, 'internal_error', { requestId: 'req_last' }),
      );
      const error = await rejection(client(fetch, { maxRetries: 2 }).createPayment(BODY));
      expect(calls).toHaveLength(3);
      expect(error).toMatchObject({ status: 500, code: 'internal_error', requestId: 'req_last' });
    });

    it('throws a PayhookConnectionError when the API never answers', async () => {
      const { fetch, calls } = fakeFetch(new TypeError('fetch failed'), new TypeError('fetch failed'));
      const error = await rejection(client(fetch, { maxRetries: 1 }).createPayment(BODY));
      expect(calls).toHaveLength(2);
      expect(error).toBeInstanceOf(PayhookConnectionError);
      expect((error as Error).message).toContain('POST http://localhost:3000/v1/payments');
    });

    it('does not retry at all with maxRetries 0', async () => {
      const { fetch, calls } = fakeFetch(apiError(500, 'internal_error'));
      await expect(client(fetch, { maxRetries: 0 }).createPayment(BODY)).rejects.toBeInstanceOf(PayhookApiError);
      expect(calls).toHaveLength(1);
    });

    it('reports a body that is not the API JSON as unexpected_response with the header request id', async () => {
      const html = new Response('<html>Bad gateway</html>', { status: 502, headers: { 'Request-Id': 'req_h' } });
      const { fetch } = fakeFetch(html);
      const error = await rejection(client(fetch, { maxRetries: 0 }).createPayment(BODY));
      expect(error).toMatchObject({ status: 502, code: 'unexpected_response', requestId: 'req_h' });
    });

    it('retries an HTML 502 from a proxy', async () => {
      const { fetch, calls } = fakeFetch(new Response('<html>', { status: 502 }), json(201, { data: CREATED }));
      await expect(client(fetch).createPayment(BODY)).resolves.toEqual(CREATED);
      expect(calls).toHaveLength(2);
    });
  });

  describe('waiting between retries', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => {
      jest.useRealTimers();
      jest.restoreAllMocks();
    });

    it('honours Retry-After seconds on 429, with the same key', async () => {
      const { fetch, calls } = fakeFetch(
        apiError(429, 'rate_limited', {}, { 'Retry-After': '2' }),
        json(201, { data: CREATED }),
      );
      const result = client(fetch, { retryBaseDelayMs: 10_000 }).createPayment(BODY);
      await jest.advanceTimersByTimeAsync(1_999);
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(2);
      await expect(result).resolves.toEqual(CREATED);
      expect(calls[1].headers['Idempotency-Key']).toBe(calls[0].headers['Idempotency-Key']);
    });

    it('honours Retry-After as an HTTP date', async () => {
      jest.setSystemTime(new Date('2030-01-01T00:00:00.000Z'));
      const { fetch, calls } = fakeFetch(
        apiError(429, 'rate_limited', {}, { 'Retry-After': 'Tue, 01 Jan 2030 00:00:03 GMT' }),
        json(200, { data: PAYMENT }),
      );
      const result = client(fetch).getPayment(PAYMENT.id);
      await jest.advanceTimersByTimeAsync(2_999);
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      await expect(result).resolves.toEqual(PAYMENT);
    });

    it('does not sleep through a Retry-After over a minute: the 429 is thrown', async () => {
      const { fetch, calls } = fakeFetch(apiError(429, 'rate_limited', {}, { 'Retry-After': '3600' }));
      await expect(client(fetch).createPayment(BODY)).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
      expect(calls).toHaveLength(1);
    });

    it('backs off exponentially from retryBaseDelayMs, with jitter of at most half a step', async () => {
      jest.spyOn(Math, 'random').mockReturnValue(0.999_999);
      const { fetch, calls } = fakeFetch(
        apiError(500, 'internal_error'),
        apiError(500, 'internal_error'),
        json(201, { data: CREATED }),
      );
      const result = client(fetch, { retryBaseDelayMs: 100 }).createPayment(BODY);
      await jest.advanceTimersByTimeAsync(99);
      expect(calls).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(199);
      expect(calls).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(3);
      await expect(result).resolves.toEqual(CREATED);
    });
  });

  describe('calls that are not idempotent', () => {
    const ENDPOINT = {
      id: 'we_ABCDEFGHIJKLMNOPQRSTUVWX',
      url: 'https://books.example/hooks',
      description: null,
      enabledEvents: ['payment.completed'],
      signingSecret: 'whsec_abc',
      livemode: false,
      status: 'enabled',
      failingSince: null,
      consecutiveFailures: 0,
      lastError: null,
      disabledAt: null,
      createdAt: '2030-01-01T00:00:00.000Z',
    };

    it('does not send a create again after a 503 or a lost answer: it could add a second endpoint', async () => {
      for (const reply of [apiError(503, 'service_unavailable'), new TypeError('socket hang up')]) {
        const { fetch, calls } = fakeFetch(reply, json(201, { data: ENDPOINT }));
        await expect(rejection(client(fetch).createWebhookEndpoint({ url: ENDPOINT.url }))).resolves.toBeInstanceOf(
          Error,
        );
        expect(calls).toHaveLength(1);
      }
    });

    it('sends a rotation again only after a 429, which payhook refused unread', async () => {
      const { fetch, calls } = fakeFetch(
        apiError(429, 'rate_limited', {}, { 'Retry-After': '0' }),
        json(200, { data: ENDPOINT }),
      );
      await expect(client(fetch).rotateWebhookEndpointSecret(ENDPOINT.id)).resolves.toEqual(ENDPOINT);
      expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
        ['POST', `http://localhost:3000/v1/webhook-endpoints/${ENDPOINT.id}/rotate-secret`, '{}'],
        ['POST', `http://localhost:3000/v1/webhook-endpoints/${ENDPOINT.id}/rotate-secret`, '{}'],
      ]);
    });
  });

  describe('getPayment', () => {
    it('GETs the payment by id, without an Idempotency-Key, and returns it unwrapped', async () => {
      const { fetch, calls } = fakeFetch(json(200, { data: PAYMENT }));
      await expect(client(fetch).getPayment(PAYMENT.id)).resolves.toEqual(PAYMENT);
      expect(calls[0]).toMatchObject({ method: 'GET', url: `http://localhost:3000/v1/payments/${PAYMENT.id}` });
      expect(calls[0].headers['Idempotency-Key']).toBeUndefined();
      expect(calls[0].headers['Content-Type']).toBeUndefined();
      expect(calls[0].body).toBeUndefined();
    });

    it('escapes the id into one path segment', async () => {
      const { fetch, calls } = fakeFetch(apiError(404, 'resource_not_found'));
      await expect(client(fetch).getPayment('../admin?x=1')).rejects.toMatchObject({ status: 404 });
      expect(calls[0].url).toBe('http://localhost:3000/v1/payments/..%2Fadmin%3Fx%3D1');
    });

    it('retries a network error', async () => {
      const { fetch, calls } = fakeFetch(new TypeError('fetch failed'), json(200, { data: PAYMENT }));
      await expect(client(fetch).getPayment(PAYMENT.id)).resolves.toEqual(PAYMENT);
      expect(calls).toHaveLength(2);
    });
  });

  describe('listPayments', () => {
    it('sends the filters as query parameters and returns the page', async () => {
      const page = { data: [PAYMENT], hasMore: true, nextCursor: 'cur_1' };
      const { fetch, calls } = fakeFetch(json(200, page));
      await expect(
        client(fetch).listPayments({
          status: ['pending', 'completed'],
          orderId: 'order-1001',
          createdFrom: new Date('2030-01-01T00:00:00.000Z'),
          createdTo: '2030-01-02T00:00:00.000Z',
          limit: 50,
          cursor: 'cur_0',
        }),
      ).resolves.toEqual(page);
      const url = new URL(calls[0].url);
      expect(url.pathname).toBe('/v1/payments');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        status: 'pending,completed',
        orderId: 'order-1001',
        createdFrom: '2030-01-01T00:00:00.000Z',
        createdTo: '2030-01-02T00:00:00.000Z',
        limit: '50',
        cursor: 'cur_0',
      });
    });

    it('sends no query string without filters', async () => {
      const { fetch, calls } = fakeFetch(json(200, { data: [], hasMore: false, nextCursor: null }));
      await client(fetch).listPayments();
      expect(calls[0].url).toBe('http://localhost:3000/v1/payments');
    });
  });

  describe('cash receipts', () => {
    const RECEIPT: CashReceiptView = {
      id: 'crc_Q2v8ZpXk1N7bRw3TyL6mHs4D',
      paymentId: PAYMENT.id,
      refundId: null,
      orderId: PAYMENT.orderId,
      transactionType: 'issue',
      type: 'expense_proof',
      identityNumber: '******0998',
      selfIssued: false,
      amount: 15000,
      taxFreeAmount: 0,
      vat: 1364,
      suppliedAmount: 13636,
      status: 'issued',
      issueNumber: '417203958',
      failureReason: null,
      livemode: false,
      createdAt: '2030-01-01T00:05:00.000Z',
      issuedAt: '2030-01-01T00:05:00.000Z',
      failedAt: null,
    };

    it("asks for one on create: create's body carries cashReceipt as given", async () => {
      const { fetch, calls } = fakeFetch(json(201, { data: CREATED }));
      const cashReceipt = { type: 'income_deduction', identityNumber: '010-1234-5678' } as const;
      await client(fetch).createPayment({ ...BODY, cashReceipt });
      expect(JSON.parse(calls[0].body ?? '')).toEqual({ ...BODY, cashReceipt });
    });

    it('asks for one on a completed payment, and does not send it again after a 503 or a lost answer', async () => {
      const body = { type: 'expense_proof', identityNumber: '124-81-00998' } as const;
      const { fetch, calls } = fakeFetch(json(201, { data: RECEIPT }));
      await expect(client(fetch).createCashReceipt(PAYMENT.id, body)).resolves.toEqual(RECEIPT);
      expect(calls[0]).toMatchObject({
        method: 'POST',
        url: `http://localhost:3000/v1/payments/${PAYMENT.id}/cash-receipts`,
        body: JSON.stringify(body),
      });
      expect(calls[0].headers['Content-Type']).toBe('application/json');

      for (const reply of [apiError(503, 'service_unavailable'), new TypeError('socket hang up')]) {
        const again = fakeFetch(reply, json(201, { data: RECEIPT }));
        await expect(rejection(client(again.fetch).createCashReceipt(PAYMENT.id, body))).resolves.toBeInstanceOf(Error);
        expect(again.calls).toHaveLength(1);
      }
    });

    it("throws the API's 409 cash_receipt_exists as it is", async () => {
      const { fetch } = fakeFetch(apiError(409, 'cash_receipt_exists'));
      const body = { type: 'income_deduction', identityNumber: '01012345678' } as const;
      await expect(client(fetch).createCashReceipt(PAYMENT.id, body)).rejects.toMatchObject({
        name: 'PayhookApiError',
        status: 409,
        code: 'cash_receipt_exists',
      });
    });

    it('gets one by id and lists a payment’s, with only the filters the list has', async () => {
      const page = { data: [RECEIPT], hasMore: false, nextCursor: null };
      const { fetch, calls } = fakeFetch(json(200, { data: RECEIPT }), json(200, page));
      await expect(client(fetch).getCashReceipt(RECEIPT.id)).resolves.toEqual(RECEIPT);
      const query = { paymentId: PAYMENT.id, status: 'issued', limit: 5, cursor: 'cur_0', type: 'cancel' } as const;
      await expect(client(fetch).listCashReceipts(query)).resolves.toEqual(page);
      expect(calls[0]).toMatchObject({ method: 'GET', url: `http://localhost:3000/v1/cash-receipts/${RECEIPT.id}` });
      const url = new URL(calls[1].url);
      expect([calls[1].method, url.pathname]).toEqual(['GET', '/v1/cash-receipts']);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        paymentId: PAYMENT.id,
        status: 'issued',
        limit: '5',
        cursor: 'cur_0',
      });
    });
  });

  describe('escrow', () => {
    const SHIPPED: PaymentView = {
      ...PAYMENT,
      status: 'completed',
      completedAt: '2030-01-01T00:01:00.000Z',
      escrow: {
        status: 'shipped',
        carrier: 'CJ대한통운',
        trackingNumber: '6901-2345-6789',
        shippedAt: '2030-01-02T01:00:00.000Z',
        autoConfirmAt: '2030-01-10T15:00:00.000Z',
        confirmedAt: null,
        rejectedAt: null,
        rejectReason: null,
      },
    };
    const shipment = { carrier: 'CJ대한통운', trackingNumber: '6901-2345-6789' };

    it("makes one on create: create's body carries escrow as given", async () => {
      const { fetch, calls } = fakeFetch(json(201, { data: CREATED }));
      const escrow = { buyerEmail: 'buyer@example.com' };
      await client(fetch).createPayment({ ...BODY, escrow });
      expect(JSON.parse(calls[0].body ?? '')).toEqual({ ...BODY, escrow });
    });

    it('registers the shipment, and sends the same shipment again after a 503 (a correction to the same values)', async () => {
      const { fetch, calls } = fakeFetch(apiError(503, 'service_unavailable'), json(200, { data: SHIPPED }));
      await expect(client(fetch).shipEscrow(PAYMENT.id, shipment)).resolves.toEqual(SHIPPED);
      expect(calls).toHaveLength(2);
      for (const call of calls) {
        expect(call).toMatchObject({
          method: 'POST',
          url: `http://localhost:3000/v1/payments/${PAYMENT.id}/escrow/shipment`,
          body: JSON.stringify(shipment),
        });
      }
    });

    it("throws the API's 409 escrow_state_conflict as it is", async () => {
      const { fetch } = fakeFetch(apiError(409, 'escrow_state_conflict'));
      await expect(client(fetch).shipEscrow(PAYMENT.id, shipment)).rejects.toMatchObject({
        name: 'PayhookApiError',
        status: 409,
        code: 'escrow_state_conflict',
      });
    });

    it('confirms and rejects a test escrow as its buyer would, and does not send either again after a lost answer', async () => {
      const confirmed = { ...SHIPPED, escrow: { ...SHIPPED.escrow!, status: 'confirmed' as const } };
      const { fetch, calls } = fakeFetch(json(200, { data: confirmed }), json(200, { data: SHIPPED }));
      await expect(client(fetch).confirmTestEscrow(PAYMENT.id)).resolves.toEqual(confirmed);
      await client(fetch).rejectTestEscrow(PAYMENT.id, '상품이 파손되어 도착했습니다.');
      const helper = `http://localhost:3000/v1/test-helpers/payments/${PAYMENT.id}/escrow`;
      expect(calls.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
        { method: 'POST', url: `${helper}/confirm`, body: undefined },
        { method: 'POST', url: `${helper}/reject`, body: JSON.stringify({ reason: '상품이 파손되어 도착했습니다.' }) },
      ]);

      for (const call of [
        (c: PayhookClient) => c.confirmTestEscrow(PAYMENT.id),
        (c: PayhookClient) => c.rejectTestEscrow(PAYMENT.id, 'late'),
      ]) {
        const again = fakeFetch(new TypeError('socket hang up'), json(200, { data: SHIPPED }));
        await expect(rejection(call(client(again.fetch)))).resolves.toBeInstanceOf(PayhookConnectionError);
        expect(again.calls).toHaveLength(1);
      }
    });
  });

  it('uses globalThis.fetch by default', async () => {
    const spy = jest.spyOn(globalThis, 'fetch').mockResolvedValue(json(200, { data: PAYMENT }));
    await expect(new PayhookClient({ apiKey: 'svc_test_abc' }).getPayment(PAYMENT.id)).resolves.toEqual(PAYMENT);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it('refuses bad options when constructed', () => {
    expect(() => new PayhookClient({ apiKey: '' })).toThrow(TypeError);
    expect(() => new PayhookClient({ apiKey: 'k', maxRetries: -1 })).toThrow(RangeError);
    expect(() => new PayhookClient({ apiKey: 'k', baseUrl: 'not a url' })).toThrow('baseUrl must be');
    expect(() => new PayhookClient({ apiKey: 'k', baseUrl: 'ftp://x' })).toThrow('baseUrl must be');
  });
});
