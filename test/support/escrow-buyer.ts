import { randomUUID } from 'node:crypto';
import { paymentBody, type PaymentsApiHarness } from './payments-api.harness';
import { pollUntil } from './poll-until';
import type { SmtpInbox } from './smtp-inbox';

/** The buyer's link as the e-mail prints it: PAY_URL, then /e/ and the 43-character token. */
const BUYER_LINK = /(https?:\/\/[^\s/]+)\/e\/([A-Za-z0-9_-]{43})(?=\s)/;

/** A shipped escrow payment and its buyer's link, read from the e-mail the buyer got. */
export interface ShippedEscrow {
  id: string;
  orderId: string;
  buyerEmail: string;
  /** The link as e-mailed (`{PAY_URL}/e/<token>`). */
  link: string;
  /** The page's path, `/e/<token>`. */
  path: string;
  token: string;
}

export const SHIPMENT = { carrier: 'CJ대한통운', trackingNumber: '6012-3456-7890' } as const;

/**
 * As a merchant with a test key does it: an escrow payment of `amount` for a fresh buyer, completed
 * with the test helper, its shipment registered; then the buyer's e-mail, read from the SMTP inbox the
 * API sends to (SMTP_URL), gives the link.
 */
export async function shippedEscrow(
  api: PaymentsApiHarness,
  merchant: { key: string },
  inbox: SmtpInbox,
  amount = 15_000,
): Promise<ShippedEscrow> {
  const buyerEmail = `buyer-${randomUUID()}@example.com`;
  const created = await api
    .as(merchant)
    .post('/v1/payments')
    .set('Idempotency-Key', randomUUID())
    .send(paymentBody({ amount, returnUrl: 'https://shop.example/orders/52', escrow: { buyerEmail } }))
    .expect(201);
  const { id, orderId } = created.body.data as { id: string; orderId: string };
  await api.as(merchant).post(`/v1/test-helpers/payments/${id}/complete`).expect(200);
  await api.as(merchant).post(`/v1/payments/${id}/escrow/shipment`).send(SHIPMENT).expect(200);
  const [email] = await pollUntil(
    async () => inbox.to(buyerEmail),
    (emails) => emails.length > 0,
  );
  const found = BUYER_LINK.exec(email.text);
  if (!found) throw new Error(`no buyer's link in the e-mail:\n${email.text}`);
  const [link, , token] = found;
  return { id, orderId, buyerEmail, link, path: `/e/${token}`, token };
}
