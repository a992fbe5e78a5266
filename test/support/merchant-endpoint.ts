import { computeSignature, parseSignatureHeader, verifyWebhookSignature } from '@payhook/signing';
import type { ReceivedWebhook, Responder } from './webhook-receiver';

export type EndpointFlaw = 'any-signature' | 'no-timestamp-check' | 'duplicate-500' | 'slow';

/**
 * How a merchant's webhook endpoint answers; without a flaw it does what spec §5.2 and §6.1 ask
 * (verify the signature and timestamp, credit each event id once, answer 2xx to repeats).
 * `timeoutMs` is the sender's limit, which the `slow` flaw overruns.
 */
export function merchantEndpoint(secret: () => string, flaw?: EndpointFlaw, timeoutMs = 1_000): Responder {
  const processed = new Set<string>();
  return (delivery: ReceivedWebhook) => {
    if (flaw === 'slow') return { status: 200, delayMs: timeoutMs + 500 };
    const header = delivery.headers['service-signature'] as string | undefined;
    if (flaw !== 'any-signature') {
      if (flaw === 'no-timestamp-check') {
        const parsed = header ? parseSignatureHeader(header) : null;
        if (!parsed || computeSignature(secret(), parsed.timestamp, delivery.rawBody) !== parsed.v1)
          return { status: 400 };
      } else {
        try {
          verifyWebhookSignature(delivery.rawBody, header, secret());
        } catch {
          return { status: 400 };
        }
      }
    }
    const id = (JSON.parse(delivery.rawBody.toString()) as { id: string }).id;
    if (processed.has(id)) return { status: flaw === 'duplicate-500' ? 500 : 200, body: 'already processed' };
    processed.add(id);
    return { status: 200, body: 'credited' };
  };
}
