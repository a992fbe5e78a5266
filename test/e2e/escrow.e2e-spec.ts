import { ISO_MILLIS_UTC, expectApiError, idemKey } from '../support/api-expectations';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { refundsClient } from '../support/refunds-client';
import { RecordingLogger } from '../support/recording-logger';
import { SmtpInbox } from '../support/smtp-inbox';

type Escrow = {
  status: string;
  carrier: string | null;
  trackingNumber: string | null;
  shippedAt: string | null;
  autoConfirmAt: string | null;
  confirmedAt: string | null;
  rejectedAt: string | null;
  rejectReason: string | null;
};
type Payment = Record<string, unknown> & { id: string; orderId: string; amount: number; escrow: Escrow | null };
type Settlement = {
  type: string;
  paymentId: string;
  refundId: string | null;
  salesDate: string;
  payoutStatus: string;
  payoutDate: string | null;
  payoutRule: string | null;
};
type Event = { id: string; type: string; data: Record<string, unknown> };
/** Whoever calls with an API key. */
type Caller = { key: string };

const ESCROW_FIELDS = [
  'autoConfirmAt',
  'carrier',
  'confirmedAt',
  'rejectReason',
  'rejectedAt',
  'shippedAt',
  'status',
  'trackingNumber',
].sort();
const EVENT_DATA_FIELDS = [
  'amount',
  'autoConfirmed',
  'confirmedAt',
  'currency',
  'orderId',
  'paymentId',
  'rejectReason',
  'rejectedAt',
  'status',
].sort();
const SHIPMENT = { carrier: 'CJ대한통운', trackingNumber: '6901-2345-6789' };
const BUYER = 'buyer@example.com';
/** The Korean date of an instant, as settlement records and the auto-confirm day count it. */
const seoulDate = (at: string | Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(new Date(at));

/**
 * Escrow (구매안전서비스) as a merchant, its buyer and the operator meet it: create with the buyer's
 * address, ship (and correct), the buyer's confirmation or rejection (here the test helpers), the
 * payout held in the settlement records until then, the events, and the auto-confirm day.
 */
describe('escrow', () => {
  let api: PaymentsApiHarness;
  let inbox: SmtpInbox;
  let merchant: Caller;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0', SMTP_URL: inbox.url });
    merchant = await api.merchantWithKey('test');
  });
  afterAll(async () => {
    await api?.stop();
    await inbox?.stop();
  });

  const create = (body: Record<string, unknown>, caller = merchant, key = idemKey()) =>
    api.as(caller).post('/v1/payments').set('Idempotency-Key', key).send(body);
  const get = async (id: string, caller = merchant): Promise<Payment> =>
    (await api.as(caller).get(`/v1/payments/${id}`).expect(200)).body.data as Payment;
  const ship = (id: string, body: unknown = SHIPMENT, caller = merchant) =>
    api
      .as(caller)
      .post(`/v1/payments/${id}/escrow/shipment`)
      .send(body as object);
  const confirm = (id: string, caller = merchant) =>
    api.as(caller).post(`/v1/test-helpers/payments/${id}/escrow/confirm`);
  const reject = (id: string, body: unknown, caller = merchant) =>
    api
      .as(caller)
      .post(`/v1/test-helpers/payments/${id}/escrow/reject`)
      .send(body as object);
  const eventsOf = async (paymentId: string, caller = merchant): Promise<Event[]> =>
    (await api.as(caller).get('/v1/events').query({ paymentId }).expect(200)).body.data as Event[];
  const settlementsOf = async (paymentId: string, caller = merchant): Promise<Settlement[]> =>
    (
      (await api.as(caller).get('/v1/settlements').query({ limit: '100' }).expect(200)).body.data as Settlement[]
    ).filter((record) => record.paymentId === paymentId);

  /** An escrow payment of `amount`, completed by the test helper. */
  async function completedEscrow(caller = merchant, extra: Record<string, unknown> = {}): Promise<Payment> {
    const created = await create(paymentBody({ escrow: { buyerEmail: BUYER }, ...extra }), caller).expect(201);
    await api.as(caller).post(`/v1/test-helpers/payments/${created.body.data.id}/complete`).expect(200);
    return get(created.body.data.id as string, caller);
  }

  async function shippedEscrow(caller = merchant, extra: Record<string, unknown> = {}): Promise<Payment> {
    const payment = await completedEscrow(caller, extra);
    return (await ship(payment.id, SHIPMENT, caller).expect(200)).body.data as Payment;
  }

  describe('create', () => {
    it('makes an escrow payment awaiting shipment; the create answer keeps its fields and no read shows the address', async () => {
      const created = await create(paymentBody({ escrow: { buyerEmail: BUYER } })).expect(201);
      expect(Object.keys(created.body.data).sort()).toEqual(
        ['amount', 'currency', 'expiresAt', 'id', 'orderId', 'payUrl', 'status'].sort(),
      );
      const payment = await get(created.body.data.id as string);
      expect(Object.keys(payment.escrow!).sort()).toEqual(ESCROW_FIELDS);
      expect(payment.escrow).toEqual({
        status: 'awaiting_shipment',
        carrier: null,
        trackingNumber: null,
        shippedAt: null,
        autoConfirmAt: null,
        confirmedAt: null,
        rejectedAt: null,
        rejectReason: null,
      });
      const listed = await api.as(merchant).get('/v1/payments').query({ orderId: payment.orderId }).expect(200);
      expect(JSON.stringify(listed.body)).not.toContain(BUYER);
      expect(JSON.stringify(payment)).not.toContain(BUYER);
    });

    it('leaves escrow null on a payment created without one', async () => {
      const created = await create(paymentBody()).expect(201);
      expect((await get(created.body.data.id as string)).escrow).toBeNull();
    });

    it.each([
      [{ escrow: { buyerEmail: 'not an address' } }, 'escrow.buyerEmail'],
      [{ escrow: { buyerEmail: 'a@' } }, 'escrow.buyerEmail'],
      [
        { escrow: { buyerEmail: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}.kr` } },
        'escrow.buyerEmail',
      ],
      [{ escrow: { buyerEmail: 12 } }, 'escrow.buyerEmail'],
      [{ escrow: {} }, 'escrow.buyerEmail'],
      [{ escrow: 'buyer@example.com' }, 'escrow'],
      [{ escrow: [{ buyerEmail: BUYER }] }, 'escrow'],
      [{ escrow: null }, 'escrow'],
    ])('refuses %j with a 400 naming %s, creating nothing', async (extra, param) => {
      const body = paymentBody(extra);
      const response = await create(body);
      expect(response.status).toBe(400);
      expect(response.body.error.param).toBe(param);
      const listed = await api
        .as(merchant)
        .get('/v1/payments')
        .query({ orderId: body.orderId as string })
        .expect(200);
      expect(listed.body.data).toEqual([]);
    });

    it('refuses a field escrow does not have', async () => {
      const response = await create(paymentBody({ escrow: { buyerEmail: BUYER, buyerPhone: '010' } }));
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('parameter_unknown');
    });

    it('is part of the body an Idempotency-Key stands for; the stored fingerprint is not the address bare hash', async () => {
      const key = idemKey();
      const body = paymentBody({ escrow: { buyerEmail: BUYER } });
      const first = await create(body, merchant, key).expect(201);
      const again = await create(body, merchant, key).expect(201);
      expect(again.body).toEqual(first.body);
      expectApiError(await create({ ...body, escrow: { buyerEmail: 'other@example.com' } }, merchant, key), {
        status: 422,
        code: 'idempotency_key_reused',
      });
      expectApiError(await create({ ...body, escrow: undefined }, merchant, key), {
        status: 422,
        code: 'idempotency_key_reused',
      });
      const [stored] = await api.sql<{ response_body: string }>(
        `SELECT response_body FROM idempotency_keys WHERE key = $1`,
        [key],
      );
      expect(stored.response_body).not.toContain(BUYER);
    });
  });

  describe('shipment', () => {
    it('ships a completed escrow: shippedAt, and autoConfirmAt at 00:00 Asia/Seoul of the 7th business day, as a D+7 payout counts them', async () => {
      // A merchant paid out 7 business days after the sales date: its payout date of a payment completed
      // today is the day the auto-confirm counts to from a shipment today.
      const shop = await api
        .admin()
        .post('/admin/v1/merchants')
        .send({ name: 'D+7', settlementDelayDays: 7 })
        .expect(201);
      const d7 = {
        merchantId: shop.body.data.id as string,
        ...(await api.issueKey(shop.body.data.id as string, 'test')),
      };
      const payment = await completedEscrow(d7);
      const shipped = (await ship(payment.id, SHIPMENT, d7).expect(200)).body.data as Payment;
      const [record] = await settlementsOf(payment.id, d7);
      const plain = await completedEscrow(d7, { escrow: undefined });
      const [plainRecord] = await settlementsOf(plain.id, d7);

      expect(shipped.escrow).toMatchObject({ status: 'shipped', ...SHIPMENT, confirmedAt: null, rejectedAt: null });
      expect(shipped.escrow!.shippedAt).toMatch(ISO_MILLIS_UTC);
      expect(shipped.escrow!.autoConfirmAt).toMatch(/T15:00:00\.000Z$/);
      expect(record).toMatchObject({ payoutStatus: 'held', payoutDate: null, payoutRule: null });
      // Unless midnight in Seoul fell between the shipment and the plain payment's completion.
      if (seoulDate(shipped.escrow!.shippedAt!) === plainRecord.salesDate) {
        expect(seoulDate(shipped.escrow!.autoConfirmAt!)).toBe(plainRecord.payoutDate);
      }
      expect(await get(payment.id, d7)).toEqual(shipped);
    });

    it('corrects the carrier and tracking number while shipped; shippedAt and autoConfirmAt stay; one e-mail', async () => {
      const shipped = await shippedEscrow();
      const corrected = (await ship(shipped.id, { carrier: '우체국택배', trackingNumber: 'KR-1234' }).expect(200)).body
        .data as Payment;
      expect(corrected.escrow).toEqual({
        ...shipped.escrow,
        carrier: '우체국택배',
        trackingNumber: 'KR-1234',
      });
      await pollFor(() => inbox.received.filter((email) => email.text.includes(shipped.orderId)).length === 1);
      const mails = inbox.received.filter((email) => email.text.includes(shipped.orderId));
      expect(mails).toHaveLength(1);
      expect(mails[0].to).toEqual([BUYER]);
      // The first shipment's carrier; the link to the buyer's page, beside the payment screens.
      expect(mails[0].text).toContain(SHIPMENT.trackingNumber);
      expect(mails[0].text).toMatch(/http:\/\/pay\.test\/e\/[A-Za-z0-9_-]{43}\n/);
      const token = /\/e\/([A-Za-z0-9_-]{43})/.exec(mails[0].text)![1];
      // Stored as its digest only.
      const [row] = await api.sql<{ matches: boolean; plain: boolean }>(
        `SELECT escrow_token_digest = sha256(convert_to($2, 'UTF8')) AS matches,
                position(convert_to($2, 'UTF8') IN escrow_token_digest) > 0 AS plain
         FROM payments WHERE id = $1`,
        [shipped.id, token],
      );
      expect(row).toEqual({ matches: true, plain: false });
      expect(JSON.stringify(corrected)).not.toContain(token);
    });

    it('refuses a payment that is not completed (409 payment_state_conflict) and one without escrow, confirmed or rejected (409 escrow_state_conflict)', async () => {
      const pending = await create(paymentBody({ escrow: { buyerEmail: BUYER } })).expect(201);
      expectApiError(await ship(pending.body.data.id as string), { status: 409, code: 'payment_state_conflict' });
      const plain = await completedEscrow(merchant, { escrow: undefined });
      expectApiError(await ship(plain.id), { status: 409, code: 'escrow_state_conflict' });
      const confirmed = await shippedEscrow();
      await confirm(confirmed.id).expect(200);
      expectApiError(await ship(confirmed.id), { status: 409, code: 'escrow_state_conflict' });
      const rejected = await shippedEscrow();
      await reject(rejected.id, { reason: '파손' }).expect(200);
      expectApiError(await ship(rejected.id), { status: 409, code: 'escrow_state_conflict' });
      expect((await get(rejected.id)).escrow).toMatchObject({ status: 'rejected', ...SHIPMENT });
    });

    it.each([
      [{ trackingNumber: 'T-1' }, 'parameter_missing', 'carrier'],
      [{ carrier: 'CJ' }, 'parameter_missing', 'trackingNumber'],
      [{ carrier: '', trackingNumber: 'T-1' }, 'parameter_invalid', 'carrier'],
      [{ carrier: 'CJ', trackingNumber: 'x'.repeat(65) }, 'parameter_invalid', 'trackingNumber'],
      [{ carrier: 'CJ\n', trackingNumber: 'T-1' }, 'parameter_invalid', 'carrier'],
      [{ carrier: 7, trackingNumber: 'T-1' }, 'parameter_invalid', 'carrier'],
    ])('refuses the shipment %j with a 400 %s naming %s, changing nothing', async (body, code, param) => {
      const payment = await completedEscrow();
      expectApiError(await ship(payment.id, body), { status: 400, code, param });
      expect((await get(payment.id)).escrow!.status).toBe('awaiting_shipment');
    });

    it("answers 404 for another merchant's payment and for one of the other mode", async () => {
      const live = await api.merchantWithKey('test', { live: true });
      const payment = await completedEscrow(live);
      const other = await api.merchantWithKey('test');
      expectApiError(await ship(payment.id, SHIPMENT, other), { status: 404, code: 'resource_not_found' });
      const liveKey = { key: (await api.issueKey(live.merchantId, 'live')).key };
      expectApiError(await ship(payment.id, SHIPMENT, liveKey), { status: 404, code: 'resource_not_found' });
      expect((await get(payment.id, live)).escrow!.status).toBe('awaiting_shipment');
    });
  });

  describe('the buyer confirms', () => {
    it('once: escrow.confirmed with its data, the held records scheduled from the confirmation day as any payout', async () => {
      const shipped = await shippedEscrow();
      await refundsClient(api, merchant).create(shipped.id, { amount: 1000 }).expect(201);
      const held = await settlementsOf(shipped.id);
      expect(held.map((record) => [record.type, record.payoutStatus, record.payoutDate])).toEqual([
        ['payment', 'held', null],
        ['refund', 'held', null],
      ]);

      const confirmed = (await confirm(shipped.id).expect(200)).body.data as Payment;
      expect(confirmed.escrow).toEqual({
        ...shipped.escrow,
        status: 'confirmed',
        confirmedAt: expect.stringMatching(ISO_MILLIS_UTC),
      });
      const plain = await completedEscrow(merchant, { escrow: undefined });
      const [plainRecord] = await settlementsOf(plain.id);
      const scheduled = await settlementsOf(shipped.id);
      for (const record of scheduled) {
        expect(record).toMatchObject({ payoutStatus: 'scheduled', payoutRule: expect.any(String) });
        if (seoulDate(confirmed.escrow!.confirmedAt!) === plainRecord.salesDate)
          expect(record.payoutDate).toBe(plainRecord.payoutDate);
      }

      const escrowEvents = (await eventsOf(shipped.id)).filter((event) => event.type.startsWith('escrow.'));
      expect(escrowEvents).toHaveLength(1);
      expect(Object.keys(escrowEvents[0].data).sort()).toEqual(EVENT_DATA_FIELDS);
      expect(escrowEvents[0].data).toEqual({
        paymentId: shipped.id,
        orderId: shipped.orderId,
        amount: shipped.amount,
        currency: 'KRW',
        status: 'confirmed',
        confirmedAt: confirmed.escrow!.confirmedAt,
        rejectedAt: null,
        rejectReason: null,
        autoConfirmed: false,
      });

      expectApiError(await confirm(shipped.id), { status: 409, code: 'escrow_state_conflict' });
      expectApiError(await reject(shipped.id, { reason: 'late' }), { status: 409, code: 'escrow_state_conflict' });
      expect((await eventsOf(shipped.id)).filter((event) => event.type.startsWith('escrow.'))).toHaveLength(1);
      // A refund after the confirmation is scheduled on its own sales date, as any refund.
      await refundsClient(api, merchant).create(shipped.id, { amount: 1000 }).expect(201);
      expect((await settlementsOf(shipped.id)).map((record) => record.payoutStatus)).toEqual([
        'scheduled',
        'scheduled',
        'scheduled',
      ]);
    });

    it('only a shipped escrow: awaiting shipment and no escrow are 409 escrow_state_conflict, a stranger 404', async () => {
      const waiting = await completedEscrow();
      expectApiError(await confirm(waiting.id), { status: 409, code: 'escrow_state_conflict' });
      const plain = await completedEscrow(merchant, { escrow: undefined });
      expectApiError(await confirm(plain.id), { status: 409, code: 'escrow_state_conflict' });
      const other = await api.merchantWithKey('test');
      const shipped = await shippedEscrow();
      expectApiError(await confirm(shipped.id, other), { status: 404, code: 'resource_not_found' });
      expect((await get(shipped.id)).escrow!.status).toBe('shipped');
    });

    it('are test helpers: a live key is refused', async () => {
      const live = await api.merchantWithKey('test', { live: true });
      const liveKey = { key: (await api.issueKey(live.merchantId, 'live')).key };
      const shipped = await shippedEscrow(live);
      expectApiError(await confirm(shipped.id, liveKey), { status: 403, code: 'test_mode_only' });
    });
  });

  it('leaves no record held once confirmed, whatever refunds succeed at the same moment', async () => {
    const payments = await Promise.all(Array.from({ length: 10 }, () => shippedEscrow()));
    const refunds = refundsClient(api, merchant);
    await Promise.all(
      payments.flatMap(({ id }) => [
        confirm(id).expect(200),
        refunds.create(id, { amount: 1000 }).expect(201),
        refunds.create(id, { amount: 2000 }).expect(201),
      ]),
    );
    for (const { id } of payments) {
      const records = await settlementsOf(id);
      expect(records.map((record) => [record.type, record.payoutStatus])).toEqual([
        ['payment', 'scheduled'],
        ['refund', 'scheduled'],
        ['refund', 'scheduled'],
      ]);
      expect(records.every((record) => record.payoutDate !== null)).toBe(true);
    }
  });

  describe('the buyer rejects', () => {
    it('once, with the reason: escrow.rejected, a review case escrow_rejected, the payout held, refunds as ever', async () => {
      const shipped = await shippedEscrow();
      const rejected = (await reject(shipped.id, { reason: '상품이 파손되어 도착했습니다.' }).expect(200)).body
        .data as Payment;
      expect(rejected.escrow).toEqual({
        ...shipped.escrow,
        status: 'rejected',
        rejectedAt: expect.stringMatching(ISO_MILLIS_UTC),
        rejectReason: '상품이 파손되어 도착했습니다.',
      });
      const [event] = (await eventsOf(shipped.id)).filter((one) => one.type.startsWith('escrow.'));
      expect(event).toMatchObject({
        type: 'escrow.rejected',
        data: {
          status: 'rejected',
          confirmedAt: null,
          rejectedAt: rejected.escrow!.rejectedAt,
          rejectReason: '상품이 파손되어 도착했습니다.',
          autoConfirmed: null,
        },
      });
      const reviews = (await api.admin().get('/admin/v1/reviews').query({ status: 'open', limit: '100' }).expect(200))
        .body.data as { source: string; reason: string; paymentId: string; amount: number }[];
      expect(reviews.filter((review) => review.paymentId === shipped.id)).toEqual([
        expect.objectContaining({ source: 'escrow', reason: 'escrow_rejected', amount: shipped.amount }),
      ]);
      await refundsClient(api, merchant).create(shipped.id, {}).expect(201);
      expect((await settlementsOf(shipped.id)).map((record) => [record.type, record.payoutStatus])).toEqual([
        ['payment', 'held'],
        ['refund', 'held'],
      ]);
      expectApiError(await reject(shipped.id, { reason: 'again' }), { status: 409, code: 'escrow_state_conflict' });
      expectApiError(await confirm(shipped.id), { status: 409, code: 'escrow_state_conflict' });
    });

    it('is too late once autoConfirmAt has passed: refused, and the escrow confirmed by itself as of that instant', async () => {
      const shipped = await shippedEscrow();
      const [due] = await api.sql<{ at: Date }>(
        // Shipped a day ago, due ten minutes ago: the task has not come since.
        `UPDATE payments SET escrow_shipped_at = escrow_shipped_at - interval '1 day',
           escrow_auto_confirm_at = date_trunc('milliseconds', now()) - interval '10 minutes'
         WHERE id = $1 RETURNING escrow_auto_confirm_at AS at`,
        [shipped.id],
      );
      expectApiError(await reject(shipped.id, { reason: 'too late' }), { status: 409, code: 'escrow_state_conflict' });
      await pollFor(async () => (await get(shipped.id)).escrow!.status === 'confirmed');
      const confirmed = await get(shipped.id);
      expect(confirmed.escrow).toMatchObject({ confirmedAt: due.at.toISOString(), rejectedAt: null });
      const [event] = (await eventsOf(shipped.id)).filter((one) => one.type.startsWith('escrow.'));
      expect(event.data).toMatchObject({ status: 'confirmed', autoConfirmed: true, confirmedAt: due.at.toISOString() });
    });

    it.each([
      [{}, 'parameter_missing'],
      [{ reason: '' }, 'parameter_invalid'],
      [{ reason: '   ' }, 'parameter_invalid'],
      [{ reason: 'x'.repeat(501) }, 'parameter_invalid'],
      [{ reason: 'ok\u0000' }, 'parameter_invalid'],
      [{ reason: 5 }, 'parameter_invalid'],
    ])('refuses %j with a 400 %s naming reason, changing nothing', async (body, code) => {
      const shipped = await shippedEscrow();
      expectApiError(await reject(shipped.id, body), { status: 400, code, param: 'reason' });
      expect((await get(shipped.id)).escrow!.status).toBe('shipped');
    });
  });
});

describe('escrow without SMTP_URL', () => {
  let api: PaymentsApiHarness;
  let logger: RecordingLogger;

  beforeAll(async () => {
    logger = new RecordingLogger();
    api = await PaymentsApiHarness.start({ RATE_LIMIT_PER_SECOND: '0' }, logger);
  });
  afterAll(() => api?.stop());

  it("writes the buyer's e-mail to the log with the link withheld: the token is in no log line", async () => {
    const merchant = await api.merchantWithKey('test');
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', idemKey())
      .send(paymentBody({ escrow: { buyerEmail: 'logged-buyer@example.com' } }))
      .expect(201);
    const id = created.body.data.id as string;
    await api.as(merchant).post(`/v1/test-helpers/payments/${id}/complete`).expect(200);
    await api.as(merchant).post(`/v1/payments/${id}/escrow/shipment`).send(SHIPMENT).expect(200);
    await pollFor(() => logger.lines.some((line) => line.includes('logged-buyer@example.com')));
    const [mail] = logger.lines.filter((line) => line.includes('logged-buyer@example.com'));
    expect(mail).toContain(SHIPMENT.trackingNumber);
    expect(mail).toContain('(the link is sent by e-mail only: set SMTP_URL)');
    expect(logger.lines.join('\n')).not.toMatch(/\/e\/[A-Za-z0-9_-]{43}/);
  });
});

/** Polls `check` until it holds (at most 20 s). */
async function pollFor(check: () => boolean | Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await check());) {
    if (Date.now() - started > 20_000) throw new Error('condition did not hold within 20 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
