import { idemKey } from './api-expectations';
import { paymentBody, type PaymentsApiHarness, type TestMerchant } from './payments-api.harness';

/** The merchant-facing refund endpoints, called with one merchant's API key. */
export function refundsClient(api: PaymentsApiHarness, merchant: { key: string }) {
  const bearer = `Bearer ${merchant.key}`;
  return {
    create: (paymentId: string, body: unknown = {}, idempotencyKey: string = idemKey()) =>
      api
        .http()
        .post(`/v1/payments/${encodeURIComponent(paymentId)}/refunds`)
        .set('Authorization', bearer)
        .set('Idempotency-Key', idempotencyKey)
        .send(body as object),
    get: (id: string) =>
      api
        .http()
        .get(`/v1/refunds/${encodeURIComponent(id)}`)
        .set('Authorization', bearer),
    list: (query: Record<string, string> = {}) =>
      api.http().get('/v1/refunds').query(query).set('Authorization', bearer),
  };
}

/**
 * A completed payment of `amount` (with the create body's other fields in `extra`, such as its
 * `taxFreeAmount`): test mode completes through the test helper, live mode through the operator's
 * confirm-receipt.
 */
export async function completedPayment(
  api: PaymentsApiHarness,
  merchant: TestMerchant,
  amount: number,
  livemode = false,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const created = await api
    .as(merchant)
    .post('/v1/payments')
    .set('Idempotency-Key', idemKey())
    .send(paymentBody({ amount, ...extra }))
    .expect(201);
  const id = created.body.data.id as string;
  if (livemode) await api.admin().post(`/admin/v1/payments/${id}/confirm-receipt`).expect(200);
  else await api.as(merchant).post(`/v1/test-helpers/payments/${id}/complete`).expect(200);
  return id;
}
