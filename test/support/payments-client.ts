import { idemKey } from './api-expectations';
import type { PaymentsApiHarness } from './payments-api.harness';

/** The merchant-facing payments endpoints, called with one API key. */
export function paymentsClient(api: PaymentsApiHarness, key: string) {
  const bearer = `Bearer ${key}`;
  return {
    create: (body: unknown, idempotencyKey: string = idemKey()) =>
      api
        .http()
        .post('/v1/payments')
        .set('Authorization', bearer)
        .set('Idempotency-Key', idempotencyKey)
        .send(body as object),
    /** Sends `text` exactly as given, for bodies a JSON serializer would not produce. */
    createRaw: (text: string, idempotencyKey: string = idemKey(), contentType = 'application/json') =>
      api
        .http()
        .post('/v1/payments')
        .set('Authorization', bearer)
        .set('Idempotency-Key', idempotencyKey)
        .set('Content-Type', contentType)
        .send(text),
    get: (id: string) =>
      api
        .http()
        .get(`/v1/payments/${encodeURIComponent(id)}`)
        .set('Authorization', bearer),
    list: (query: Record<string, string> = {}) =>
      api.http().get('/v1/payments').query(query).set('Authorization', bearer),
  };
}

export type PaymentsClient = ReturnType<typeof paymentsClient>;
