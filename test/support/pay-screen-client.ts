import { randomInt, randomUUID } from 'node:crypto';
import { paymentBody, type PaymentsApiHarness } from './payments-api.harness';

/** A payment's deposit code as a payer reads it off the payment screen (`ABCD-EFGH`). */
export async function depositCodeOnScreen(api: PaymentsApiHarness, payUrl: string): Promise<string> {
  const page = await api.http().get(new URL(payUrl).pathname).expect(200);
  const match = /id="deposit-code">([A-Z0-9-]{9})</.exec(page.text);
  if (!match) throw new Error('no deposit code on the payment screen');
  return match[1];
}

/** A fresh 16-digit PIN, printed the way gift vouchers print them (`1234-5678-9012-3456`). */
export function newVoucherPin(): string {
  return Array.from({ length: 4 }, () => String(randomInt(10_000)).padStart(4, '0')).join('-');
}

/**
 * A browser on a payment's voucher page: its CSRF cookie and form token. `submit` posts PINs from a
 * client address (the harness must trust loopback proxies for it to count: `TRUST_PROXY=loopback`).
 * The browser prefers English, so the specs read the outcomes' English wording.
 */
export async function openVoucherPage(api: PaymentsApiHarness, payUrl: string) {
  const path = `${new URL(payUrl).pathname}/vouchers`;
  const page = await api.http().get(path).set('Accept-Language', 'en').expect(200);
  const cookie = (page.headers['set-cookie'] as unknown as string[])
    .find((value) => value.startsWith('payhook_csrf='))!
    .split(';')[0];
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1];
  return {
    page,
    submit: (pins: string, clientAddress = '198.51.100.7') =>
      api
        .http()
        .post(path)
        .set('Accept-Language', 'en')
        .set('Cookie', cookie)
        .set('X-Forwarded-For', clientAddress)
        .type('form')
        .send({ csrf, pins }),
  };
}

/** A pending payment of `amount` won with an https returnUrl (as live keys need), created with `merchant`'s key. */
export async function createPayment(
  api: PaymentsApiHarness,
  merchant: { key: string },
  amount = 15_000,
): Promise<{ id: string; orderId: string; payUrl: string }> {
  const created = await api
    .as(merchant)
    .post('/v1/payments')
    .set('Idempotency-Key', randomUUID())
    .send(paymentBody({ amount, returnUrl: 'https://shop.example/return?cart=7' }))
    .expect(201);
  return created.body.data as { id: string; orderId: string; payUrl: string };
}

/** A bank deposit notification for POST /admin/v1/deposits: a fresh bank transaction id, received now. */
export function bankDeposit(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    bankTransactionId: `bt-${randomUUID()}`,
    amount: 15_000,
    depositorName: '홍길동',
    receivedAt: new Date().toISOString(),
    ...fields,
  };
}
