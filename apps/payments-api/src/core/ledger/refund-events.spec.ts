import { refundOutcomeEvent, toNewRefundEvent } from './event-writer';
import type { RefundRecord } from './refund-record';

const pending: RefundRecord = {
  id: 'rfd_AAAAAAAAAAAAAAAAAAAAAAAA',
  paymentId: 'pay_AAAAAAAAAAAAAAAAAAAAAAAA',
  merchantId: 'mch_AAAAAAAAAAAAAAAAAAAAAAAA',
  livemode: true,
  orderId: 'order-1',
  amount: 5_000,
  currency: 'KRW',
  reason: null,
  status: 'pending',
  refundAccountSealed: 'v1:00000000:sealed',
  bankTransactionId: null,
  failureReason: null,
  createdAt: new Date('2026-11-25T01:00:00.000Z'),
  succeededAt: null,
  failedAt: null,
  taxFreeAmount: 1_500,
  vat: null,
  suppliedAmount: null,
  metadata: { returnId: 'ret-1' },
};
const at = new Date('2026-11-25T02:00:00.000Z');

describe('refund events', () => {
  it('refund.succeeded carries exactly the refund as it ended, at its succeededAt', () => {
    const event = refundOutcomeEvent({ ...pending, status: 'succeeded', succeededAt: at, bankTransactionId: 'TX' });
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'refund.succeeded',
      createdAt: at.toISOString(),
      data: {
        refundId: pending.id,
        paymentId: pending.paymentId,
        orderId: 'order-1',
        amount: 5_000,
        currency: 'KRW',
        status: 'succeeded',
        reason: null,
        succeededAt: at.toISOString(),
      },
    });
  });

  it('refund.failed says failedAt and never the failure reason or the account', () => {
    const failed = { ...pending, status: 'failed' as const, failedAt: at, failureReason: 'closed', reason: 'size' };
    const event = refundOutcomeEvent(failed);
    expect(event.type).toBe('refund.failed');
    expect(Object.keys(event.data).sort()).toEqual(
      ['amount', 'currency', 'failedAt', 'orderId', 'paymentId', 'reason', 'refundId', 'status'].sort(),
    );
    const row = toNewRefundEvent(failed, event);
    expect(row).toMatchObject({ refundId: pending.id, paymentId: pending.paymentId, type: 'refund.failed' });
    expect(row.body).not.toContain('sealed');
  });

  it('a pending refund has no event yet', () => {
    expect(() => refundOutcomeEvent(pending)).toThrow(/pending/);
  });
});
