import type { OutgoingEmail } from '../../platform/mail/mailer';
import { salesDate, type PaymentRecord } from '../../core/ledger';

/** What the buyer's e-mail says besides the payment: who sells, and where the buyer's page is. */
export interface BuyerEmailContext {
  merchantName: string;
  /** The buyer's page with its token: in the e-mail only. */
  link: string;
}

/** What the log shows in place of the link when e-mail is off: the token is a bearer secret. */
const LINK_WITHHELD = '(the link is sent by e-mail only: set SMTP_URL)';

const won = (amount: number) => `₩${amount.toLocaleString('en-US')}`;

/**
 * The e-mail a buyer gets at an escrow's first shipment, plain text, in Korean and then English (the
 * buyer's language is not known): the seller, the order, the amount, the carrier and tracking number,
 * the day the purchase confirms by itself, and the link to confirm or reject it. The merchant's own
 * words (its name, order id, carrier, tracking number) are quoted as data.
 */
export function escrowBuyerEmail(
  to: string,
  payment: PaymentRecord & {
    escrow: { carrier: string | null; trackingNumber: string | null; autoConfirmAt: Date | null };
  },
  context: BuyerEmailContext,
): OutgoingEmail {
  const { escrow } = payment;
  const day = escrow.autoConfirmAt ? salesDate(escrow.autoConfirmAt) : '';
  const text = (link: string) =>
    [
      `"${context.merchantName}"에서 주문하신 상품이 발송되었습니다.`,
      '',
      `주문 번호: ${payment.orderId}`,
      `결제 금액: ${won(payment.amount)}`,
      `택배사: ${escrow.carrier ?? ''}`,
      `운송장 번호: ${escrow.trackingNumber ?? ''}`,
      '',
      '결제 대금은 구매안전서비스(에스크로)로 보호되고 있습니다. 상품을 받으신 뒤 아래 링크에서 구매를 확정하거나,',
      '문제가 있으면 사유와 함께 구매를 거절해 주세요.',
      `${day} 00:00(한국 시간)까지 아무것도 하지 않으시면 구매가 자동으로 확정됩니다.`,
      '',
      link,
      '',
      '이 링크는 본인만 사용하세요. 링크를 가진 사람은 누구나 이 구매를 확정하거나 거절할 수 있습니다.',
      '',
      '---',
      '',
      `Your order from "${context.merchantName}" has shipped.`,
      '',
      `Order: ${payment.orderId}`,
      `Amount: ${won(payment.amount)}`,
      `Carrier: ${escrow.carrier ?? ''}`,
      `Tracking number: ${escrow.trackingNumber ?? ''}`,
      '',
      'Your payment is held in escrow (purchase protection). Once the goods arrive, confirm the purchase at',
      'the link below, or reject it with a reason if something is wrong. If you do nothing, the purchase',
      `confirms by itself at 00:00 Korea time on ${day}.`,
      '',
      link,
      '',
      'Keep this link to yourself: whoever has it can confirm or reject this purchase.',
    ].join('\n');
  return {
    to: [to],
    subject: `[${context.merchantName}] 구매 확정 요청 · Confirm your purchase (${payment.orderId})`,
    text: text(context.link),
    textForLog: text(LINK_WITHHELD),
  };
}
