import { randomInt } from 'node:crypto';
import type { PaymentsApiHarness } from './payments-api.harness';

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
 */
export async function openVoucherPage(api: PaymentsApiHarness, payUrl: string) {
  const path = `${new URL(payUrl).pathname}/vouchers`;
  const page = await api.http().get(path).expect(200);
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
        .set('Cookie', cookie)
        .set('X-Forwarded-For', clientAddress)
        .type('form')
        .send({ csrf, pins }),
  };
}
