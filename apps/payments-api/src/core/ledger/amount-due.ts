import type { Sql } from '@payhook/persistence';
import type { PaymentRecord } from './payment-record';

/** SQL of the value of the vouchers held for (or redeemed by) the payment whose id is `paymentId` (an expression). */
export const voucherValueSql = (paymentId: string) =>
  `(SELECT COALESCE(sum(face_value), 0) FROM vouchers WHERE payment_id = ${paymentId} AND status IN ('held', 'redeemed'))`;

/** Value of the vouchers held for (or redeemed by) a payment. */
export async function heldVoucherValue(sql: Sql, paymentId: string): Promise<number> {
  const [row] = await sql<{ total: string }>(`SELECT ${voucherValueSql('$1')} AS total`, [paymentId]);
  return Number(row.total);
}

/** What is still due on a payment: its amount less the vouchers it holds. */
export async function amountDue(sql: Sql, payment: PaymentRecord): Promise<number> {
  return payment.amount - (await heldVoucherValue(sql, payment.id));
}
