import { expectApiError } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody, type TestMerchant } from '../support/payments-api.harness';
import { paymentsClient, type PaymentsClient } from '../support/payments-client';

/**
 * A copy of a real cursor with the last ASCII digit of its decoded content changed, re-encoded the
 * same way: with today's format that is a character of the payment id (or of the timestamp), so the
 * result is still well-formed and only a signature or MAC can tell it apart. Works on the part
 * before the first "." so that a `payload.signature` cursor is tampered in its payload.
 */
function tamperCursor(cursor: string): string {
  const [payload, ...rest] = cursor.split('.');
  const bytes = Buffer.from(payload, 'base64url');
  const isDigit = (byte: number) => byte >= 0x30 && byte <= 0x39;
  const index = bytes.findLastIndex(isDigit);
  if (index === -1) bytes[bytes.length - 1] ^= 1;
  else bytes[index] = 0x30 + ((bytes[index] - 0x30 + 1) % 10);
  return [bytes.toString('base64url'), ...rest].join('.');
}

/** Unknown query parameters, bad dates, unknown statuses and forged cursors are 400. */
describe('GET /v1/payments query validation', () => {
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  let payments: PaymentsClient;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
  });
  afterAll(() => api.stop());
  beforeEach(async () => {
    merchant = await api.merchantWithKey('test');
    payments = paymentsClient(api, merchant.key);
  });

  it('refuses an unknown query parameter with 400 parameter_unknown naming it', async () => {
    const response = await payments.list({ sort: 'amount' });
    expectApiError(response, { status: 400, code: 'parameter_unknown', param: 'sort' });
  });

  it.each([
    ['createdFrom', 'yesterday'],
    ['createdFrom', '2026-02-30'],
    ['createdFrom', '2026-13-01T00:00:00Z'],
    ['createdTo', 'not-a-date'],
    ['createdTo', '2026-01-01T25:00:00Z'],
  ])('refuses %s=%s with 400 parameter_invalid', async (param, value) => {
    const response = await payments.list({ [param]: value });
    expectApiError(response, { status: 400, code: 'parameter_invalid', param });
  });

  it.each(['bogus', 'pending,bogus', 'PENDING', 'pending,'])(
    'refuses status=%s with 400 parameter_invalid status',
    async (status) => {
      const response = await payments.list({ status });
      expectApiError(response, { status: 400, code: 'parameter_invalid', param: 'status' });
    },
  );

  it.each(['0', '101', 'abc', '-1', '1.5', '10abc'])(
    'refuses limit=%s with 400 parameter_invalid limit',
    async (limit) => {
      const response = await payments.list({ limit });
      expectApiError(response, { status: 400, code: 'parameter_invalid', param: 'limit' });
    },
  );

  it.each(['1', '100'])('accepts limit=%s', async (limit) => {
    const response = await payments.list({ limit });
    expect(response.status).toBe(200);
  });

  it.each([
    ['random base64url', Buffer.from('random bytes that are no cursor at all').toString('base64url')],
    ['random base64url of JSON', Buffer.from('{"createdAt":"2026-01-01T00:00:00.000Z"}').toString('base64url')],
    ['characters outside base64url', 'a+b/c=='],
    [
      'a hand-made cursor',
      Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'pay_' + '0'.repeat(24)])).toString('base64url'),
    ],
  ])('refuses a forged cursor (%s) with 400 parameter_invalid cursor', async (_description, cursor) => {
    const response = await payments.list({ cursor });
    expectApiError(response, { status: 400, code: 'parameter_invalid', param: 'cursor' });
  });

  it('refuses a tampered copy of a real cursor with 400 parameter_invalid cursor', async () => {
    for (let i = 0; i < 3; i++) expect((await payments.create(paymentBody())).status).toBe(201);
    const page = await payments.list({ limit: '1' });
    const cursor = page.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const next = await payments.list({ limit: '1', cursor });
    expect(next.status).toBe(200);

    const tampered = tamperCursor(cursor);
    expect(tampered).not.toBe(cursor);
    const response = await payments.list({ limit: '1', cursor: tampered });
    expectApiError(response, { status: 400, code: 'parameter_invalid', param: 'cursor' });
  });
});
