import { createHmac } from 'node:crypto';

import { type PaymentCompletedEvent } from '@payhook/contracts';
import { deliveryHeaders, signWebhook } from '@payhook/signing';

import { verifyWebhook, WebhookVerificationError, type WebhookVerificationErrorReason } from './verify-webhook';

const SECRET = 'whsec_sdk_test_secret';
const NOW = 1_700_000_000;
const EVENT: PaymentCompletedEvent = {
  id: 'evt_4kZ2pQ9vN7bX1cR8mT3wY6sL',
  type: 'payment.completed',
  createdAt: '2023-11-14T22:13:20.123Z',
  data: {
    paymentId: 'pay_9hG3kL2mN8pQ4rS7tV1wX5yZ',
    orderId: 'order-1001',
    amount: 15000,
    currency: 'KRW',
    completedAt: '2023-11-14T22:13:20.100Z',
  },
};
const BODY = JSON.stringify(EVENT);

function sign(body: Buffer | string, t = NOW, secret = SECRET): string {
  return signWebhook(secret, body, t);
}

function reasonOf(run: () => unknown): WebhookVerificationErrorReason | 'no_error' {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return 'no_error';
}

function verifyReason(
  body: Buffer | string,
  header: string | undefined,
  options: Parameters<typeof verifyWebhook>[3] = {},
  secret = SECRET,
): WebhookVerificationErrorReason | 'no_error' {
  return reasonOf(() => verifyWebhook(body, header, secret, { nowSeconds: NOW, ...options }));
}

describe('verifyWebhook', () => {
  it('returns the typed event for a genuine delivery', () => {
    const event = verifyWebhook(BODY, sign(BODY), SECRET, { nowSeconds: NOW });
    expect(event).toEqual(EVENT);
    expect(event.data.amount).toBe(15000);
  });

  it('accepts the body as a Buffer, byte for byte', () => {
    expect(verifyWebhook(Buffer.from(BODY), sign(BODY), SECRET, { nowSeconds: NOW })).toEqual(EVENT);
  });

  it('accepts a header computed independently with createHmac', () => {
    const v1 = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
    expect(verifyReason(BODY, `t=${NOW},v1=${v1}`)).toBe('no_error');
  });

  it('uses the current time when nowSeconds is not given', () => {
    const fresh = signWebhook(SECRET, BODY);
    expect(verifyWebhook(BODY, fresh, SECRET)).toEqual(EVENT);
    expect(reasonOf(() => verifyWebhook(BODY, sign(BODY, NOW), SECRET))).toBe('timestamp_out_of_tolerance');
  });

  it('keeps multi-byte UTF-8 intact', () => {
    const body = JSON.stringify({ ...EVENT, data: { ...EVENT.data, orderId: '주문-42' } });
    const bytes = Buffer.from(body, 'utf8');
    expect(verifyWebhook(bytes, sign(bytes), SECRET, { nowSeconds: NOW }).data.orderId).toBe('주문-42');
  });

  it('throws a WebhookVerificationError whose message carries no secret', () => {
    let caught: unknown;
    try {
      verifyWebhook(BODY, sign(BODY, NOW, 'whsec_other'), SECRET, { nowSeconds: NOW });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WebhookVerificationError);
    expect(caught).toMatchObject({ name: 'WebhookVerificationError', reason: 'signature_mismatch' });
    expect((caught as Error).message).not.toContain(SECRET);
    expect((caught as Error).message).not.toContain('whsec_other');
  });

  describe('rejects tampering', () => {
    it('tampered body (amount raised after signing)', () => {
      const forged = BODY.replace('15000', '1500000');
      expect(verifyReason(forged, sign(BODY))).toBe('signature_mismatch');
    });

    it('tampered body (one trailing byte)', () => {
      expect(verifyReason(`${BODY}\n`, sign(BODY))).toBe('signature_mismatch');
    });

    it('re-serialized body with the same meaning', () => {
      expect(verifyReason(JSON.stringify(EVENT, null, 2), sign(BODY))).toBe('signature_mismatch');
    });

    it('tampered header: one hex digit flipped', () => {
      const header = sign(BODY);
      const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0');
      expect(verifyReason(BODY, flipped)).toBe('signature_mismatch');
    });

    it('tampered header: t moved without re-signing', () => {
      const v1 = sign(BODY).split('v1=')[1];
      expect(verifyReason(BODY, `t=${NOW - 1},v1=${v1}`)).toBe('signature_mismatch');
    });

    it('wrong secret', () => {
      expect(verifyReason(BODY, sign(BODY), {}, 'whsec_wrong')).toBe('signature_mismatch');
    });
  });

  describe('timestamp tolerance', () => {
    it('rejects a stale t with a valid HMAC (the integration test: 10 minutes old)', () => {
      expect(verifyReason(BODY, sign(BODY, NOW - 600))).toBe('timestamp_out_of_tolerance');
    });

    it('accepts 300 s either way and rejects 301 s', () => {
      expect(verifyReason(BODY, sign(BODY, NOW - 300))).toBe('no_error');
      expect(verifyReason(BODY, sign(BODY, NOW + 300))).toBe('no_error');
      expect(verifyReason(BODY, sign(BODY, NOW - 301))).toBe('timestamp_out_of_tolerance');
      expect(verifyReason(BODY, sign(BODY, NOW + 301))).toBe('timestamp_out_of_tolerance');
    });

    it('honours toleranceSeconds', () => {
      const header = sign(BODY, NOW - 30);
      expect(verifyReason(BODY, header, { toleranceSeconds: 30 })).toBe('no_error');
      expect(verifyReason(BODY, header, { toleranceSeconds: 29 })).toBe('timestamp_out_of_tolerance');
    });

    it('treats a negative tolerance as a programming error', () => {
      expect(() => verifyWebhook(BODY, sign(BODY), SECRET, { nowSeconds: NOW, toleranceSeconds: -1 })).toThrow(
        RangeError,
      );
    });
  });

  describe('rejects malformed headers', () => {
    const v1 = sign(BODY).split('v1=')[1];

    it.each([
      ['missing', undefined, 'header_missing'],
      ['empty', '', 'header_missing'],
      ['v1 before t', `v1=${v1},t=${NOW}`, 'header_malformed'],
      ['uppercase hex', `t=${NOW},v1=${v1.toUpperCase()}`, 'header_malformed'],
      ['a space after the comma', `t=${NOW}, v1=${v1}`, 'header_malformed'],
      ['no v1', `t=${NOW}`, 'header_malformed'],
      ['an extra v0', `t=${NOW},v1=${v1},v0=${v1}`, 'header_malformed'],
      ['63 hex chars', `t=${NOW},v1=${v1.slice(1)}`, 'header_malformed'],
      ['a trailing newline', `t=${NOW},v1=${v1}\n`, 'header_malformed'],
    ])('%s', (_case, header, reason) => {
      expect(verifyReason(BODY, header)).toBe(reason);
    });

    it('a header array handed over by a lenient HTTP layer', () => {
      const header = [sign(BODY)] as unknown as string;
      expect(verifyReason(BODY, header)).toBe('header_malformed');
    });
  });

  describe('rejects a signed body that is not a payment.completed event', () => {
    const withData = (data: Record<string, unknown>) => JSON.stringify({ ...EVENT, data: { ...EVENT.data, ...data } });

    it.each([
      ['not JSON', '{"id":"evt_1",'],
      ['a JSON array', JSON.stringify([EVENT])],
      ['JSON null', 'null'],
      ['a JSON string', JSON.stringify(BODY)],
      ['another event type', JSON.stringify({ ...EVENT, type: 'payment.failed' })],
      ['no id', JSON.stringify({ ...EVENT, id: undefined })],
      ['an id that is not an event id', JSON.stringify({ ...EVENT, id: 'pay_4kZ2pQ9vN7bX1cR8mT3wY6sL' })],
      ['no data', JSON.stringify({ ...EVENT, data: undefined })],
      ['createdAt not a timestamp', JSON.stringify({ ...EVENT, createdAt: 'yesterday' })],
      ['amount as a string', withData({ amount: '15000' })],
      ['a fractional amount', withData({ amount: 15000.5 })],
      ['a zero amount', withData({ amount: 0 })],
      ['another currency', withData({ currency: 'USD' })],
      ['an empty orderId', withData({ orderId: '' })],
      ['a paymentId that is not a payment id', withData({ paymentId: 'order-1' })],
      ['completedAt missing', withData({ completedAt: undefined })],
    ])('%s', (_case, body) => {
      expect(verifyReason(body, sign(body))).toBe('body_invalid');
    });

    it('bytes that are not valid UTF-8', () => {
      const bytes = Buffer.concat([Buffer.from(BODY.slice(0, -2)), Buffer.from([0xff]), Buffer.from('"}')]);
      expect(verifyReason(bytes, sign(bytes))).toBe('body_invalid');
    });

    it('checks the signature before parsing: an unsigned non-JSON body is a signature failure', () => {
      expect(verifyReason('not json', sign(BODY))).toBe('signature_mismatch');
    });
  });

  describe('Service-Event-Id', () => {
    it('accepts a header equal to the body id', () => {
      expect(verifyReason(BODY, sign(BODY), { eventIdHeader: EVENT.id })).toBe('no_error');
    });

    it.each([
      ['another id', 'evt_0000000000000000000000'],
      ['missing although asked for', undefined],
      ['sent twice', [EVENT.id, EVENT.id]],
    ])('rejects %s', (_case, eventIdHeader) => {
      expect(verifyReason(BODY, sign(BODY), { eventIdHeader })).toBe('body_invalid');
    });

    it('is not checked when the caller does not pass it', () => {
      expect(verifyReason(BODY, sign(BODY), {})).toBe('no_error');
    });
  });

  it('refuses a parsed object instead of the raw bytes, loudly', () => {
    expect(() => verifyWebhook(EVENT as unknown as string, sign(BODY), SECRET, { nowSeconds: NOW })).toThrow(TypeError);
  });

  it('refuses an empty secret, loudly', () => {
    expect(() => verifyWebhook(BODY, sign(BODY), '', { nowSeconds: NOW })).toThrow(TypeError);
  });
});

describe('verifyWebhook for every outcome', () => {
  const outcome = (type: string, status: string, instant: string) => ({
    id: EVENT.id,
    type,
    createdAt: EVENT.createdAt,
    data: {
      paymentId: EVENT.data.paymentId,
      orderId: 'order-1001',
      amount: 15000,
      currency: 'KRW',
      status,
      [instant]: '2023-11-14T22:13:20.100Z',
    },
  });

  it.each([
    ['payment.failed', 'failed', 'failedAt'],
    ['payment.canceled', 'canceled', 'canceledAt'],
    ['payment.expired', 'expired', 'expiredAt'],
  ])('returns %s, narrowed by its type', (type, status, instant) => {
    const body = JSON.stringify(outcome(type, status, instant));
    const event = verifyWebhook(body, sign(body), SECRET, { nowSeconds: NOW });
    switch (event.type) {
      case 'payment.completed':
      case 'refund.succeeded':
      case 'refund.failed':
      case 'cash_receipt.issued':
      case 'cash_receipt.failed':
      case 'escrow.confirmed':
      case 'escrow.rejected':
        throw new Error('narrowed to the wrong type');
      case 'payment.failed':
        expect(event.data.failedAt).toBe('2023-11-14T22:13:20.100Z');
        break;
      case 'payment.canceled':
        expect(event.data.canceledAt).toBe('2023-11-14T22:13:20.100Z');
        break;
      case 'payment.expired':
        expect(event.data.expiredAt).toBe('2023-11-14T22:13:20.100Z');
        break;
    }
    expect(event).toEqual(JSON.parse(body));
  });

  it.each([
    ['an unknown type', outcome('payment.refunded', 'refunded', 'refundedAt')],
    ['a status that is not its type', outcome('payment.failed', 'canceled', 'failedAt')],
    ['the instant of another type', outcome('payment.expired', 'expired', 'failedAt')],
    ['a type inherited from Object', outcome('constructor', 'failed', 'failedAt')],
  ])('refuses %s as body_invalid, signature or not', (_what, event) => {
    const body = JSON.stringify(event);
    expect(verifyReason(body, sign(body))).toBe('body_invalid');
  });
});

describe('verifyWebhook for refund events', () => {
  const refundEvent = (type: string, status: string, instant: string, data: Record<string, unknown> = {}) => ({
    id: EVENT.id,
    type,
    createdAt: EVENT.createdAt,
    data: {
      refundId: 'rfd_7tY2wQ5nB8vK3mP9xL4cR1sD',
      paymentId: EVENT.data.paymentId,
      orderId: 'order-1001',
      amount: 5000,
      currency: 'KRW',
      status,
      reason: 'damaged on arrival',
      [instant]: '2023-11-14T22:13:20.100Z',
      ...data,
    },
  });

  it.each([
    ['refund.succeeded', 'succeeded', 'succeededAt'],
    ['refund.failed', 'failed', 'failedAt'],
  ])('returns %s, narrowed by its type', (type, status, instant) => {
    const body = JSON.stringify(refundEvent(type, status, instant));
    const event = verifyWebhook(body, sign(body), SECRET, { nowSeconds: NOW });
    switch (event.type) {
      case 'refund.succeeded':
        expect(event.data.succeededAt).toBe('2023-11-14T22:13:20.100Z');
        break;
      case 'refund.failed':
        expect(event.data.failedAt).toBe('2023-11-14T22:13:20.100Z');
        break;
      case 'payment.completed':
      case 'payment.failed':
      case 'payment.canceled':
      case 'payment.expired':
      case 'cash_receipt.issued':
      case 'cash_receipt.failed':
      case 'escrow.confirmed':
      case 'escrow.rejected':
        throw new Error('narrowed to the wrong type');
    }
    expect(event.data.refundId).toBe('rfd_7tY2wQ5nB8vK3mP9xL4cR1sD');
    expect(event).toEqual(JSON.parse(body));
  });

  it('returns a refund without a reason', () => {
    const body = JSON.stringify(refundEvent('refund.succeeded', 'succeeded', 'succeededAt', { reason: null }));
    expect(verifyWebhook(body, sign(body), SECRET, { nowSeconds: NOW }).data).toMatchObject({ reason: null });
  });

  it.each([
    ['no refundId', refundEvent('refund.succeeded', 'succeeded', 'succeededAt', { refundId: undefined })],
    ['an event id as refundId', refundEvent('refund.failed', 'failed', 'failedAt', { refundId: EVENT.id })],
    ['no reason at all', refundEvent('refund.succeeded', 'succeeded', 'succeededAt', { reason: undefined })],
    ['an empty reason', refundEvent('refund.succeeded', 'succeeded', 'succeededAt', { reason: '' })],
    ['a status that is not its type', refundEvent('refund.succeeded', 'failed', 'succeededAt')],
    ['the instant of the other type', refundEvent('refund.failed', 'failed', 'succeededAt')],
    ['a zero amount', refundEvent('refund.succeeded', 'succeeded', 'succeededAt', { amount: 0 })],
  ])('refuses %s as body_invalid', (_what, event) => {
    const body = JSON.stringify(event);
    expect(verifyReason(body, sign(body))).toBe('body_invalid');
  });
});

describe('verifyWebhook for cash receipt events', () => {
  const ISSUED_AT = '2023-11-14T22:13:20.100Z';
  /** A test receipt asked for at create for a ₩15,000 payment, issued when the payment completed. */
  const receipt = {
    id: 'crc_Q2v8ZpXk1N7bRw3TyL6mHs4D',
    paymentId: EVENT.data.paymentId,
    refundId: null,
    orderId: 'order-1001',
    transactionType: 'issue',
    type: 'income_deduction',
    identityNumber: '*******5678',
    selfIssued: false,
    amount: 15000,
    taxFreeAmount: 0,
    vat: 1364,
    suppliedAmount: 13636,
    status: 'issued',
    issueNumber: '417203958',
    failureReason: null,
    livemode: false,
    createdAt: ISSUED_AT,
    issuedAt: ISSUED_AT,
    failedAt: null,
  };
  const issued = (data: Record<string, unknown> = {}) => ({
    id: EVENT.id,
    type: 'cash_receipt.issued',
    createdAt: ISSUED_AT,
    data: { ...receipt, ...data },
  });
  const failed = (data: Record<string, unknown> = {}) => ({
    id: EVENT.id,
    type: 'cash_receipt.failed',
    createdAt: ISSUED_AT,
    data: {
      ...receipt,
      identityNumber: '*******0000',
      status: 'failed',
      issueNumber: null,
      issuedAt: null,
      failureReason: 'identity_rejected',
      failedAt: ISSUED_AT,
      ...data,
    },
  });
  const verified = (event: object) => {
    const body = JSON.stringify(event);
    return verifyWebhook(body, sign(body), SECRET, { nowSeconds: NOW });
  };

  it('returns cash_receipt.issued, narrowed to the receipt with its issue number', () => {
    const event = verified(issued());
    switch (event.type) {
      case 'cash_receipt.issued': {
        const { issueNumber, issuedAt }: { issueNumber: string; issuedAt: string } = event.data;
        expect({ issueNumber, issuedAt }).toEqual({ issueNumber: '417203958', issuedAt: ISSUED_AT });
        expect(event.data.transactionType).toBe('issue');
        expect(event.data.vat + event.data.suppliedAmount + event.data.taxFreeAmount).toBe(event.data.amount);
        break;
      }
      case 'payment.completed':
      case 'payment.failed':
      case 'payment.canceled':
      case 'payment.expired':
      case 'refund.succeeded':
      case 'refund.failed':
      case 'cash_receipt.failed':
      case 'escrow.confirmed':
      case 'escrow.rejected':
        throw new Error('narrowed to the wrong type');
    }
    expect(event).toEqual(issued());
  });

  it('returns cash_receipt.failed, narrowed to the receipt with its failure reason', () => {
    const event = verified(failed());
    if (event.type !== 'cash_receipt.failed') throw new Error('narrowed to the wrong type');
    const { failureReason, failedAt }: { failureReason: string; failedAt: string } = event.data;
    expect({ failureReason, failedAt }).toEqual({ failureReason: 'identity_rejected', failedAt: ISSUED_AT });
    expect(event.data.issueNumber).toBeNull();
    expect(event).toEqual(failed());
  });

  it("returns a refund's cancel receipt and a self-issued receipt", () => {
    const cancel = issued({ transactionType: 'cancel', refundId: 'rfd_7tY2wQ5nB8vK3mP9xL4cR1sD', amount: 5000 });
    expect(verified(cancel).data).toMatchObject({
      transactionType: 'cancel',
      refundId: 'rfd_7tY2wQ5nB8vK3mP9xL4cR1sD',
    });
    const self = issued({ selfIssued: true, identityNumber: '******1234', amount: 120000, type: 'income_deduction' });
    expect(verified(self).data).toMatchObject({ selfIssued: true });
    expect(verified(issued({ type: 'expense_proof', identityNumber: '******0998' })).data).toMatchObject({
      type: 'expense_proof',
    });
  });

  it.each([
    ['a refund id as the receipt id', issued({ id: 'rfd_7tY2wQ5nB8vK3mP9xL4cR1sD' })],
    ['no receipt id', issued({ id: undefined })],
    ['an issue receipt naming a refund', issued({ refundId: 'rfd_7tY2wQ5nB8vK3mP9xL4cR1sD' })],
    ['a cancel receipt without its refund', issued({ transactionType: 'cancel' })],
    ['an unknown transaction type', issued({ transactionType: 'refund' })],
    ['an unknown receipt type', issued({ type: 'tax_refund' })],
    ['no buyer number', issued({ identityNumber: '' })],
    ['selfIssued as text', issued({ selfIssued: 'false' })],
    ['a negative VAT', issued({ vat: -1 })],
    ['a fractional supplied amount', issued({ suppliedAmount: 13636.5 })],
    ['no tax-free amount', issued({ taxFreeAmount: undefined })],
    ['a zero amount', issued({ amount: 0 })],
    ['a status that is not its type', issued({ status: 'pending' })],
    ['an issued receipt without its number', issued({ issueNumber: null })],
    ['an issued receipt that also failed', issued({ failureReason: 'identity_rejected' })],
    ['an issued receipt without issuedAt', issued({ issuedAt: null })],
    ['a failed receipt without its reason', failed({ failureReason: null })],
    ['a failed receipt with an issue number', failed({ issueNumber: '417203958' })],
    ['a failed receipt without failedAt', failed({ failedAt: 'yesterday' })],
    ['no livemode', issued({ livemode: undefined })],
    ['a payment id that is not one', issued({ paymentId: 'order-1001' })],
    ['a receipt of the other type', { ...failed(), type: 'cash_receipt.issued' }],
  ])('refuses %s as body_invalid', (_what, event) => {
    const body = JSON.stringify(event);
    expect(verifyReason(body, sign(body))).toBe('body_invalid');
  });
});

describe('verifyWebhook for escrow events', () => {
  const CLOSED_AT = '2023-11-14T22:13:20.100Z';
  /** A ₩39,000 test escrow payment, shipped, then confirmed by its buyer. */
  const confirmed = (data: Record<string, unknown> = {}) => ({
    id: EVENT.id,
    type: 'escrow.confirmed',
    createdAt: CLOSED_AT,
    data: {
      paymentId: EVENT.data.paymentId,
      orderId: 'order-1009',
      amount: 39000,
      currency: 'KRW',
      status: 'confirmed',
      confirmedAt: CLOSED_AT,
      rejectedAt: null,
      rejectReason: null,
      autoConfirmed: false,
      ...data,
    },
  });
  const rejected = (data: Record<string, unknown> = {}) => ({
    ...confirmed(),
    type: 'escrow.rejected',
    data: {
      ...confirmed().data,
      status: 'rejected',
      confirmedAt: null,
      rejectedAt: CLOSED_AT,
      rejectReason: '상품이 파손되어 도착했습니다.',
      autoConfirmed: null,
      ...data,
    },
  });
  const verified = (event: object) => {
    const body = JSON.stringify(event);
    return verifyWebhook(body, sign(body), SECRET, { nowSeconds: NOW });
  };

  it('returns escrow.confirmed, narrowed to the confirmation and whether the auto-confirm day made it', () => {
    const event = verified(confirmed());
    switch (event.type) {
      case 'escrow.confirmed': {
        const { confirmedAt, autoConfirmed }: { confirmedAt: string; autoConfirmed: boolean } = event.data;
        expect({ confirmedAt, autoConfirmed }).toEqual({ confirmedAt: CLOSED_AT, autoConfirmed: false });
        const { rejectedAt, rejectReason }: { rejectedAt: null; rejectReason: null } = event.data;
        expect({ rejectedAt, rejectReason }).toEqual({ rejectedAt: null, rejectReason: null });
        break;
      }
      case 'payment.completed':
      case 'payment.failed':
      case 'payment.canceled':
      case 'payment.expired':
      case 'refund.succeeded':
      case 'refund.failed':
      case 'cash_receipt.issued':
      case 'cash_receipt.failed':
      case 'escrow.rejected':
        throw new Error('narrowed to the wrong type');
    }
    expect(event).toEqual(confirmed());
    expect(verified(confirmed({ autoConfirmed: true })).data).toMatchObject({ autoConfirmed: true });
  });

  it("returns escrow.rejected, narrowed to the rejection with the buyer's reason", () => {
    const event = verified(rejected());
    if (event.type !== 'escrow.rejected') throw new Error('narrowed to the wrong type');
    const { rejectedAt, rejectReason }: { rejectedAt: string; rejectReason: string } = event.data;
    expect({ rejectedAt, rejectReason }).toEqual({
      rejectedAt: CLOSED_AT,
      rejectReason: '상품이 파손되어 도착했습니다.',
    });
    const { confirmedAt, autoConfirmed }: { confirmedAt: null; autoConfirmed: null } = event.data;
    expect({ confirmedAt, autoConfirmed }).toEqual({ confirmedAt: null, autoConfirmed: null });
    expect(event).toEqual(rejected());
  });

  it.each([
    ['a status that is not its type', confirmed({ status: 'shipped' })],
    ['a confirmation without confirmedAt', confirmed({ confirmedAt: null })],
    ['a confirmation that was also rejected', confirmed({ rejectedAt: CLOSED_AT })],
    ['a confirmation with a reason', confirmed({ rejectReason: 'late' })],
    ['a confirmation that does not say whether it was automatic', confirmed({ autoConfirmed: null })],
    ['autoConfirmed as text', confirmed({ autoConfirmed: 'false' })],
    ['a rejection without rejectedAt', rejected({ rejectedAt: 'yesterday' })],
    ['a rejection without its reason', rejected({ rejectReason: null })],
    ['a rejection with an empty reason', rejected({ rejectReason: '' })],
    ['a rejection that was also confirmed', rejected({ confirmedAt: CLOSED_AT })],
    ['a rejection that says it was automatic', rejected({ autoConfirmed: false })],
    ['no autoConfirmed at all', rejected({ autoConfirmed: undefined })],
    ['a payment id that is not one', confirmed({ paymentId: 'order-1009' })],
    ['a zero amount', confirmed({ amount: 0 })],
    ['another currency', confirmed({ currency: 'USD' })],
    ['a rejection sent as the other type', { ...rejected(), type: 'escrow.confirmed' }],
  ])('refuses %s as body_invalid', (_what, event) => {
    const body = JSON.stringify(event);
    expect(verifyReason(body, sign(body))).toBe('body_invalid');
  });
});

describe('verifyWebhook given the request headers', () => {
  const OLDER_SECRET = 'whsec_Q0mB7kR2vX9pL4sT8wN1cZ6yH3jF5dGa';
  const STANDARD_SECRET = 'whsec_tbUnIEU4XQHGdkn6IIpsDwWbPgtXFQEG';

  /** A delivery's headers as Node hands them to the merchant: lower-case names. */
  function requestHeaders(secrets = [STANDARD_SECRET], t = NOW, body = BODY, eventId = EVENT.id) {
    const built = deliveryHeaders({ eventId, body, secrets, nowSeconds: t });
    return Object.fromEntries(Object.entries(built).map(([name, value]) => [name.toLowerCase(), value]));
  }

  /** Without the Service headers, as a proxy that passes only the Standard Webhooks ones would send it. */
  function standardOnly(headers: Record<string, string | string[] | undefined>) {
    return Object.fromEntries(Object.entries(headers).filter(([name]) => !/^service-/i.test(name)));
  }

  function reason(
    headers: Record<string, string | string[] | undefined>,
    secret = STANDARD_SECRET,
    options: Parameters<typeof verifyWebhook>[3] = {},
    body: Buffer | string = BODY,
  ) {
    return reasonOf(() => verifyWebhook(body, headers, secret, { nowSeconds: NOW, ...options }));
  }

  it('returns the event of a genuine delivery', () => {
    expect(verifyWebhook(Buffer.from(BODY), requestHeaders(), STANDARD_SECRET, { nowSeconds: NOW })).toEqual(EVENT);
  });

  it('finds the headers whatever the case of their names', () => {
    const built = deliveryHeaders({ eventId: EVENT.id, body: BODY, secrets: [STANDARD_SECRET], nowSeconds: NOW });
    expect(reason(built)).toBe('no_error');
    expect(reason(standardOnly(Object.fromEntries(Object.entries(built).map(([k, v]) => [k.toUpperCase(), v]))))).toBe(
      'no_error',
    );
  });

  /** Without the Standard Webhooks headers, as a sender of Service-Signature alone would send it. */
  const serviceOnly = (headers: Record<string, string | string[] | undefined>) =>
    Object.fromEntries(Object.entries(headers).filter(([name]) => !/^webhook-/i.test(name)));

  it('verifies the Standard set when there is one: a receiver on a secret in its overlap verifies too', () => {
    const overlap = requestHeaders([STANDARD_SECRET, OLDER_SECRET]);
    expect(reason(overlap, OLDER_SECRET)).toBe('no_error');
    const stranger = `v1,${Buffer.alloc(32, 7).toString('base64')}`;
    expect(reason({ ...overlap, 'webhook-signature': stranger })).toBe('signature_mismatch');
  });

  describe('with Service-Signature alone', () => {
    it('verifies it', () => {
      expect(reason(serviceOnly(requestHeaders()))).toBe('no_error');
      const forged = { ...serviceOnly(requestHeaders()), 'service-signature': sign(BODY, NOW, 'whsec_someone_else') };
      expect(reason(forged)).toBe('signature_mismatch');
    });

    it('holds Service-Event-Id to the body id', () => {
      const headers = serviceOnly(requestHeaders());
      expect(reason({ ...headers, 'service-event-id': 'evt_0000000000000000000000' })).toBe('body_invalid');
      expect(reason({ ...headers, 'service-event-id': undefined })).toBe('body_invalid');
    });

    it('refuses it sent twice', () => {
      const headers = serviceOnly(requestHeaders());
      expect(
        reason({
          ...headers,
          'service-signature': [String(headers['service-signature']), String(headers['service-signature'])],
        }),
      ).toBe('header_malformed');
    });
  });

  describe('with the Standard Webhooks headers alone', () => {
    it('verifies them', () => {
      expect(verifyWebhook(BODY, standardOnly(requestHeaders()), STANDARD_SECRET, { nowSeconds: NOW })).toEqual(EVENT);
    });

    it('accepts any v1 entry that matches, skipping other versions', () => {
      const headers = standardOnly(requestHeaders([STANDARD_SECRET, OLDER_SECRET]));
      expect(reason(headers, STANDARD_SECRET)).toBe('no_error');
      expect(reason(headers, OLDER_SECRET)).toBe('no_error');
      const mixed = {
        ...headers,
        'webhook-signature': `v1a,c2lnbmVk v2,abc ${headers['webhook-signature'] as string}`,
      };
      expect(reason(mixed, OLDER_SECRET)).toBe('no_error');
    });

    it('accepts a signature computed independently from the specification', () => {
      const key = Buffer.from(STANDARD_SECRET.slice('whsec_'.length), 'base64');
      const v1 = createHmac('sha256', key).update(`${EVENT.id}.${NOW}.${BODY}`).digest('base64');
      const headers = { 'webhook-id': EVENT.id, 'webhook-timestamp': String(NOW), 'webhook-signature': `v1,${v1}` };
      expect(reason(headers)).toBe('no_error');
    });

    it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'])('refuses a delivery without %s', (name) => {
      expect(reason({ ...standardOnly(requestHeaders()), [name]: undefined })).toBe('header_missing');
      expect(reason({ ...standardOnly(requestHeaders()), [name]: '' })).toBe('header_missing');
    });

    it('refuses a request with neither header set as header_missing', () => {
      expect(reason({ 'content-type': 'application/json' })).toBe('header_missing');
    });

    it.each([
      ['a timestamp that is not digits', { 'webhook-timestamp': `${NOW}.5` }],
      ['a timestamp with a leading zero', { 'webhook-timestamp': `0${NOW}` }],
      ['no v1 entry', { 'webhook-signature': 'v2,c2lnbmVk' }],
      ['a v1 entry that is not the base64 of 32 bytes', { 'webhook-signature': 'v1,c2lnbmVk' }],
      ['webhook-signature sent twice', { 'webhook-signature': ['v1,a', 'v1,b'] }],
    ])('refuses %s as header_malformed', (_case, change) => {
      expect(reason({ ...standardOnly(requestHeaders()), ...change })).toBe('header_malformed');
    });

    it('refuses another secret, a changed body and a changed id as signature_mismatch', () => {
      const headers = standardOnly(requestHeaders());
      expect(reason(headers, OLDER_SECRET)).toBe('signature_mismatch');
      expect(reason(headers, STANDARD_SECRET, {}, BODY.replace('15000', '1500000'))).toBe('signature_mismatch');
      expect(reason({ ...headers, 'webhook-id': 'evt_0000000000000000000000' })).toBe('signature_mismatch');
    });

    it('accepts 300 s either way and refuses 301 s', () => {
      expect(reason(standardOnly(requestHeaders(undefined, NOW - 300)))).toBe('no_error');
      expect(reason(standardOnly(requestHeaders(undefined, NOW + 300)))).toBe('no_error');
      expect(reason(standardOnly(requestHeaders(undefined, NOW - 301)))).toBe('timestamp_out_of_tolerance');
      expect(reason(standardOnly(requestHeaders(undefined, NOW + 301)))).toBe('timestamp_out_of_tolerance');
      const headers = standardOnly(requestHeaders(undefined, NOW - 30));
      expect(reason(headers, STANDARD_SECRET, { toleranceSeconds: 30 })).toBe('no_error');
      expect(reason(headers, STANDARD_SECRET, { toleranceSeconds: 29 })).toBe('timestamp_out_of_tolerance');
    });

    it('holds webhook-id to the body id', () => {
      const signedForAnotherId = standardOnly(requestHeaders(undefined, NOW, BODY, 'evt_0000000000000000000000'));
      expect(reason(signedForAnotherId)).toBe('body_invalid');
    });
  });
});
