import type { EventView } from '@payhook/contracts';
import { verifyWebhookSignature, WebhookSignatureError } from '@payhook/signing';
import { idemKey } from './api-expectations';
import { paymentBody, type PaymentsApiHarness } from './payments-api.harness';
import { pollUntil } from './poll-until';
import type { ReceivedWebhook, Responder, WebhookReceiver } from './webhook-receiver';

type Caller = { key: string };

/** How the receiver answers the `attempt`-th delivery (1-based) of one payment's event. */
export type PaymentResponder = (attempt: number) => ReturnType<Responder>;

/**
 * Scripts a shared receiver per payment: a test sets how its own payment's event is answered and
 * leaves every other delivery to the default 200 "ok". The payment id is known before the event
 * exists, so the script is in place before the first delivery can arrive.
 */
export function respondPerPayment(receiver: WebhookReceiver): {
  set(paymentId: string, responder: PaymentResponder): void;
} {
  const responders = new Map<string, PaymentResponder>();
  receiver.respondWith((delivery) => {
    const event = JSON.parse(delivery.rawBody.toString('utf8')) as { id: string; data: { paymentId: string } };
    const responder = responders.get(event.data.paymentId);
    return responder ? responder(receiver.forEvent(event.id).length) : { status: 200, body: 'ok' };
  });
  return { set: (paymentId, responder) => void responders.set(paymentId, responder) };
}

/** A new pending test-or-live payment of the caller's; returns its id. */
export async function createPayment(api: PaymentsApiHarness, caller: Caller): Promise<string> {
  const created = await api
    .as(caller)
    .post('/v1/payments')
    .set('Idempotency-Key', idemKey())
    .send(paymentBody())
    .expect(201);
  return created.body.data.id as string;
}

/** Completes a test payment through the test helper; returns the id of its payment.completed event. */
export async function completePayment(api: PaymentsApiHarness, caller: Caller, paymentId: string): Promise<string> {
  await api.as(caller).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
  return eventIdOf(api, caller, paymentId);
}

export async function eventIdOf(api: PaymentsApiHarness, caller: Caller, paymentId: string): Promise<string> {
  const events = await api.as(caller).get(`/v1/events?paymentId=${paymentId}`).expect(200);
  expect(events.body.data).toHaveLength(1);
  return events.body.data[0].id as string;
}

/** Creates and completes a test payment, answering its deliveries with `responder` when given. */
export async function completedPayment(
  api: PaymentsApiHarness,
  caller: Caller,
  script?: { plans: ReturnType<typeof respondPerPayment>; responder: PaymentResponder },
): Promise<{ paymentId: string; eventId: string }> {
  const paymentId = await createPayment(api, caller);
  script?.plans.set(paymentId, script.responder);
  return { paymentId, eventId: await completePayment(api, caller, paymentId) };
}

export async function getEvent(api: PaymentsApiHarness, caller: Caller, eventId: string): Promise<EventView> {
  return (await api.as(caller).get(`/v1/events/${eventId}`).expect(200)).body.data as EventView;
}

/** Re-reads GET /v1/events/{id} until `predicate` holds. */
export function eventUntil(
  api: PaymentsApiHarness,
  caller: Caller,
  eventId: string,
  predicate: (event: EventView) => boolean,
  timeoutMs?: number,
): Promise<EventView> {
  return pollUntil(() => getEvent(api, caller, eventId), predicate, { timeoutMs });
}

/** 'valid', or why a merchant verifying this delivery with `secret` would reject it. */
export function signatureCheck(delivery: ReceivedWebhook, secret: string): string {
  try {
    verifyWebhookSignature(delivery.rawBody, delivery.headers['service-signature'] as string | undefined, secret);
    return 'valid';
  } catch (error) {
    if (error instanceof WebhookSignatureError) return error.reason;
    throw error;
  }
}

/** The `t` of a delivery's Service-Signature, in unix seconds. */
export function signatureTime(delivery: ReceivedWebhook): number {
  const match = /^t=(\d+),/.exec(String(delivery.headers['service-signature']));
  if (!match) throw new Error(`no t= in Service-Signature ${String(delivery.headers['service-signature'])}`);
  return Number(match[1]);
}
