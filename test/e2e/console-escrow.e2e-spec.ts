import { randomUUID } from 'node:crypto';
import { EscrowService } from '../../apps/payments-api/src/money/escrow';
import { SettlementsRepository } from '../../apps/payments-api/src/money/settlements';
import { ConsoleClient, approvedMerchant } from '../support/console-client';
import { englishWords } from '../support/korean-text';
import { PaymentsApiHarness, paymentBody } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';

type Merchant = Awaited<ReturnType<typeof approvedMerchant>>;

interface Escrow {
  status: string;
  carrier: string | null;
  trackingNumber: string | null;
  shippedAt: string | null;
  autoConfirmAt: string | null;
  confirmedAt: string | null;
  rejectedAt: string | null;
  rejectReason: string | null;
}

interface Settlement {
  paymentId: string;
  salesDate: string;
  payoutStatus: 'scheduled' | 'held';
  payoutDate: string | null;
  grossAmount: number;
  feeAmount: number;
  vatAmount: number;
  netAmount: number;
}

const PASSWORD = 'a long enough password 1';
const BUYER = 'buyer@escrow.example';

/** The Escrow card of a console payment page ('' when the page has none). */
function escrowCardOf(page: string): string {
  const start = page.indexOf('<section class="card" id="escrow"');
  return start < 0 ? '' : page.slice(start, page.indexOf('</section>', start));
}

/** A term and its value in a description list, whatever the whitespace between them. */
const term = (name: string, value: string) => new RegExp(`<dt>${name}</dt>\\s*<dd>\\s*${value}\\s*</dd>`);

/** How the console writes an instant for a merchant in Asia/Seoul (UTC+9, no daylight saving). */
const inSeoul = (iso: string) =>
  `<time datetime="${iso}" class="nowrap">${new Date(Date.parse(iso) + 9 * 3_600_000)
    .toISOString()
    .slice(0, 19)
    .replace('T', ' ')} KST</time>`;

/** The labels a reader hears or sees without the text around them. */
const labelsOf = (page: string) =>
  [...page.matchAll(/\s(?:aria-label|data-label)="([^"]*)"/g)].map((match) => match[1]).join(' ');

/**
 * An escrow payment (구매안전서비스) on its console page: the Escrow card in each state, the form that
 * registers and corrects the shipment (developers and owners, not viewers), its errors, the audit
 * log's entry, and the settlement held until the buyer confirms, in Korean and in English.
 */
describe('merchant console: an escrow payment', () => {
  let api: PaymentsApiHarness;
  let shop: Merchant;
  const members = {} as Record<'owner' | 'developer' | 'viewer', ConsoleClient>;
  const emails = {} as Record<'owner' | 'developer' | 'viewer', string>;

  beforeAll(async () => {
    api = await PaymentsApiHarness.start();
    shop = await approvedMerchant(api, { name: '서울 찻집', timeZone: 'Asia/Seoul' });
    members.owner = await ConsoleClient.login(api, shop.email);
    emails.owner = shop.email;
    for (const role of ['developer', 'viewer'] as const) {
      const email = `${role}-${shop.merchantId.toLowerCase()}@escrow.example`;
      const made = await members.owner.post('/console/team/invites', { email, role }).expect(200);
      const link = /<code data-invite-link>([^<]+)<\/code>/.exec(made.text)![1];
      await api
        .http()
        .post(new URL(link).pathname)
        .type('form')
        .send({ password: PASSWORD, passwordAgain: PASSWORD })
        .expect(303);
      members[role] = await ConsoleClient.login(api, email, PASSWORD);
      emails[role] = email;
    }
  });
  afterAll(() => api.stop());

  /** Digits for an order id and a Korean customer: nothing on a Korean page is Latin but what the page says. */
  async function createPayment(merchant: Merchant, extra: Record<string, unknown> = { escrow: { buyerEmail: BUYER } }) {
    const created = await api
      .as(merchant)
      .post('/v1/payments')
      .set('Idempotency-Key', randomUUID())
      .send(
        paymentBody({
          amount: 33_000,
          orderId: `${Date.now()}${Math.floor(Math.random() * 1000)}`,
          customerId: '김민수',
          ...extra,
        }),
      )
      .expect(201);
    return created.body.data as { id: string; orderId: string };
  }

  const complete = (merchant: Merchant, id: string) =>
    api.as(merchant).post(`/v1/test-helpers/payments/${id}/complete`).expect(200);

  async function escrowOf(merchant: Merchant, id: string): Promise<Escrow> {
    return (await api.as(merchant).get(`/v1/payments/${id}`).expect(200)).body.data.escrow as Escrow;
  }

  const pathOf = (id: string) => `/console/payments/${id}?mode=test`;
  const shipmentPath = (id: string) => `/console/payments/${id}/escrow/shipment`;
  /** A browser that sends no Accept-Language: the console speaks Korean to it. */
  const korean = (path: string, user = members.owner) => api.http().get(path).set('Cookie', user.cookie).expect(200);
  const ship = (id: string, form: Record<string, string>, user = members.owner) =>
    user.post(shipmentPath(id), { mode: 'test', ...form });

  function expectKorean(page: string, data: string[] = []) {
    expect(page).toContain('<html lang="ko">');
    const ids = page.match(/\b(?:pay|evt|rfd|crc|rev|we|att)_[A-Za-z0-9]+/g) ?? [];
    const known = ['Asia/Seoul', 'payment.completed', 'escrow.confirmed', 'escrow.rejected', ...data, ...ids];
    expect(englishWords(page, known)).toEqual([]);
    expect(englishWords(labelsOf(page), known)).toEqual([]);
    // The buyer's address is never shown.
    expect(page).not.toContain(BUYER);
  }

  it('shows no Escrow card on a payment without escrow', async () => {
    const plain = await createPayment(shop, {});
    await complete(shop, plain.id);
    expect(escrowCardOf((await members.owner.get(pathOf(plain.id)).expect(200)).text)).toBe('');
    expect(escrowCardOf((await korean(pathOf(plain.id))).text)).toBe('');
    const refused = await ship(plain.id, { carrier: 'CJ대한통운', trackingNumber: '1234' }).expect(409);
    expect(refused.text).toContain(
      '<p class="error" role="alert">This payment was made without escrow: it has no shipment to register.</p>',
    );
  });

  it('answers a payment that is not there, or another merchant’s, with the not-found page', async () => {
    const other = await approvedMerchant(api, { name: '다른 상점' });
    const theirs = await createPayment(other);
    await complete(other, theirs.id);
    for (const id of [theirs.id, 'pay_000000000000000000000000', 'not-an-id', "pay_'; --"]) {
      const answer = await ship(id, { carrier: 'CJ대한통운', trackingNumber: '1234' }).expect(404);
      expect(answer.text).toContain('There is nothing here, or it belongs to another account or mode.');
    }
    expect((await escrowOf(other, theirs.id)).status).toBe('awaiting_shipment');
  });

  it('shows a pending escrow payment awaiting shipment, with no form until it is paid; shipping it is refused', async () => {
    const pending = await createPayment(shop);
    const card = escrowCardOf((await members.owner.get(pathOf(pending.id)).expect(200)).text);
    expect(card).toContain('<h2 id="escrow-title">Escrow</h2>');
    expect(card).toMatch(term('Escrow status', '<span class="badge awaiting_shipment">awaiting shipment</span>'));
    expect(card).toContain('Once the payment is completed, register the shipment here.');
    expect(card).not.toContain('<form');
    expect(card).not.toContain('Carrier');

    const page = (await korean(pathOf(pending.id))).text;
    expectKorean(page);
    const inKorean = escrowCardOf(page);
    expect(inKorean).toContain('<h2 id="escrow-title">구매안전서비스(에스크로)</h2>');
    expect(inKorean).toMatch(term('에스크로 상태', '<span class="badge awaiting_shipment">배송 대기</span>'));
    expect(inKorean).toContain('결제가 완료되면 여기에서 배송 정보를 등록하세요.');

    const refused = await ship(pending.id, { carrier: 'CJ대한통운', trackingNumber: '1234' }).expect(409);
    expect(refused.text).toContain('<p class="error" role="alert">Only a completed payment can be shipped.</p>');
    expect((await escrowOf(shop, pending.id)).status).toBe('awaiting_shipment');
  });

  describe('a completed escrow payment, shipped and corrected through the form', () => {
    let payment: { id: string; orderId: string };

    beforeAll(async () => {
      payment = await createPayment(shop);
      await complete(shop, payment.id);
    });

    it('offers owners and developers the shipment form, in English and in Korean, and viewers no form', async () => {
      for (const role of ['owner', 'developer'] as const) {
        const card = escrowCardOf((await members[role].get(pathOf(payment.id)).expect(200)).text);
        expect(card).toMatch(term('Escrow status', '<span class="badge awaiting_shipment">awaiting shipment</span>'));
        expect(card).toContain('The payout is held until the buyer confirms the purchase.');
        expect(card).toContain(`<form method="post" action="${shipmentPath(payment.id)}" class="shipment-form"`);
        expect(card).toContain('<h3>Register the shipment</h3>');
        expect(card).toContain('<label for="shipment-carrier">Carrier</label>');
        expect(card).toContain('<label for="shipment-trackingNumber">Tracking number</label>');
        expect(card).toContain('<p class="hint" id="shipment-carrier-hint">1 to 64 characters.</p>');
        expect(card).toContain(`name="csrf" value="${members[role].csrf}"`);
        expect(card).toContain('<button type="submit">Register shipment</button>');
      }
      // A form of plain HTML: the page carries no script.
      expect((await members.owner.get(pathOf(payment.id)).expect(200)).text).not.toContain('<script');
      const viewer = escrowCardOf((await members.viewer.get(pathOf(payment.id)).expect(200)).text);
      expect(viewer).toMatch(term('Escrow status', '<span class="badge awaiting_shipment">awaiting shipment</span>'));
      expect(viewer).not.toContain('<form');

      const page = (await korean(pathOf(payment.id))).text;
      expectKorean(page);
      const card = escrowCardOf(page);
      expect(card).toContain('고객이 구매를 확정할 때까지 정산 대금 지급이 보류됩니다.');
      expect(card).toContain('<h3>배송 등록</h3>');
      expect(card).toContain('<label for="shipment-carrier">택배사</label>');
      expect(card).toContain('<label for="shipment-trackingNumber">운송장 번호</label>');
      expect(card).toContain('<p class="hint" id="shipment-carrier-hint">1~64자</p>');
      expect(card).toContain('<button type="submit">배송 등록</button>');
    });

    it('refuses bad input with errors on their fields, as typed, and ships nothing', async () => {
      const empty = await ship(payment.id, { carrier: ' ', trackingNumber: '' }).expect(400);
      expect(empty.text).toContain(
        '<p class="error" role="alert">The shipment was not saved: correct the fields marked below.</p>',
      );
      expect(empty.text).toContain('<p class="field-error" id="shipment-carrier-error">Enter the carrier.</p>');
      expect(empty.text).toContain(
        '<p class="field-error" id="shipment-trackingNumber-error">Enter the tracking number.</p>',
      );
      expect(empty.text).toMatch(
        /id="shipment-carrier"[^>]*aria-describedby="shipment-carrier-hint shipment-carrier-error"\s+aria-invalid="true"/,
      );

      const wrong = await ship(payment.id, { carrier: '한'.repeat(65), trackingNumber: '12\t34' }).expect(400);
      expect(wrong.text).toContain('The carrier takes at most 64 characters.');
      expect(wrong.text).toContain('The tracking number takes printable characters only: no tabs or line breaks.');
      expect(wrong.text).toContain(`value="${'한'.repeat(65)}"`);

      // A Korean member reads the errors in Korean.
      const inKorean = await api
        .http()
        .post(shipmentPath(payment.id))
        .set('Cookie', members.developer.cookie)
        .type('form')
        .send({ csrf: members.developer.csrf, mode: 'test', carrier: 'CJ대한통운', trackingNumber: '' })
        .expect(400);
      expectKorean(inKorean.text, ['CJ']);
      expect(inKorean.text).toContain('배송 정보가 저장되지 않았습니다. 아래 표시된 항목을 수정하세요.');
      expect(inKorean.text).toContain(
        '<p class="field-error" id="shipment-trackingNumber-error">운송장 번호를 입력하세요.</p>',
      );
      expect(inKorean.text).toContain('value="CJ대한통운"');

      expect((await escrowOf(shop, payment.id)).status).toBe('awaiting_shipment');
    });

    it('refuses a viewer, and a form without the session’s CSRF token', async () => {
      const viewer = await ship(payment.id, { carrier: 'CJ대한통운', trackingNumber: '1111' }, members.viewer).expect(
        403,
      );
      expect(viewer.text).toContain('This needs the developer role; you are viewer.');
      const forged = await members.owner
        .post(shipmentPath(payment.id), { mode: 'test', carrier: 'CJ대한통운', trackingNumber: '1111' }, { csrf: null })
        .expect(403);
      expect(forged.text).toContain('This form has expired or did not come from the console.');
      expect((await escrowOf(shop, payment.id)).status).toBe('awaiting_shipment');
    });

    it('registers the shipment as a developer: the card shows it, and the form becomes a correction', async () => {
      const shipped = await ship(
        payment.id,
        { carrier: ' CJ대한통운 ', trackingNumber: '6901-2345-6789' },
        members.developer,
      ).expect(303);
      expect(shipped.headers.location).toBe(`/console/payments/${payment.id}?mode=test&notice=shipped#escrow`);
      const escrow = await escrowOf(shop, payment.id);
      expect(escrow).toMatchObject({ status: 'shipped', carrier: 'CJ대한통운', trackingNumber: '6901-2345-6789' });

      const page = (await members.developer.get(shipped.headers.location).expect(200)).text;
      expect(page).toContain(
        '<p class="notice" role="status">Shipment registered: payhook e-mails the buyer a link to confirm or reject the purchase.</p>',
      );
      const card = escrowCardOf(page);
      expect(card).toMatch(term('Escrow status', '<span class="badge shipped">shipped</span>'));
      expect(card).toMatch(term('Carrier', 'CJ대한통운'));
      expect(card).toMatch(term('Tracking number', '<code>6901-2345-6789</code>'));
      expect(card).toMatch(term('Shipped', inSeoul(escrow.shippedAt!)));
      expect(card).toMatch(term('Confirms by itself', inSeoul(escrow.autoConfirmAt!)));
      expect(card).toContain('The buyer was e-mailed a link to confirm or reject the purchase.');
      expect(card).toContain('<h3>Correct the shipment</h3>');
      expect(card).toContain('value="CJ대한통운"');
      expect(card).toContain('value="6901-2345-6789"');
      expect(card).toContain('<button type="submit">Save correction</button>');
      expect(escrowCardOf((await members.viewer.get(pathOf(payment.id)).expect(200)).text)).not.toContain('<form');

      const inKorean = (await korean(shipped.headers.location, members.developer)).text;
      expectKorean(inKorean, ['CJ']);
      expect(inKorean).toContain('배송 정보를 등록했습니다. 고객에게 구매 확정 또는 거절 링크를 이메일로 보냅니다.');
      const koreanCard = escrowCardOf(inKorean);
      expect(koreanCard).toMatch(term('에스크로 상태', '<span class="badge shipped">배송 중</span>'));
      expect(koreanCard).toMatch(term('택배사', 'CJ대한통운'));
      expect(koreanCard).toMatch(term('운송장 번호', '<code>6901-2345-6789</code>'));
      expect(koreanCard).toMatch(term('배송 등록 일시', inSeoul(escrow.shippedAt!)));
      expect(koreanCard).toMatch(term('자동 구매 확정 예정 일시', inSeoul(escrow.autoConfirmAt!)));
      expect(koreanCard).toContain('<h3>배송 정보 수정</h3>');
      expect(koreanCard).toContain('<button type="submit">수정 내용 저장</button>');
    });

    it('corrects the shipment as an owner: carrier and tracking number change, the times stay', async () => {
      const before = await escrowOf(shop, payment.id);
      const corrected = await ship(payment.id, { carrier: '우체국택배', trackingNumber: '1234567890123' }).expect(303);
      expect(corrected.headers.location).toBe(
        `/console/payments/${payment.id}?mode=test&notice=shipmentCorrected#escrow`,
      );
      const after = await escrowOf(shop, payment.id);
      expect(after).toEqual({ ...before, carrier: '우체국택배', trackingNumber: '1234567890123' });
      const page = (await members.owner.get(corrected.headers.location).expect(200)).text;
      expect(page).toContain('<p class="notice" role="status">Shipment corrected.</p>');
      expect(escrowCardOf(page)).toMatch(term('Carrier', '우체국택배'));
      expect(escrowCardOf(page)).toMatch(term('Shipped', inSeoul(before.shippedAt!)));
      expect((await korean(corrected.headers.location)).text).toContain('배송 정보를 수정했습니다.');

      // An invalid correction keeps the shipment as it was.
      await ship(payment.id, { carrier: '', trackingNumber: '1' }).expect(400);
      expect(await escrowOf(shop, payment.id)).toEqual(after);
    });

    it('writes each shipment to the audit log as the member who made it', async () => {
      const page = (await members.owner.get('/console/audit?action=escrow.shipped').expect(200)).text;
      const rows = [...page.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
        .map((match) => match[1])
        .filter((row) => row.includes(payment.id));
      expect(rows).toHaveLength(2);
      // Newest first: the owner's correction, then the developer's shipment.
      expect(rows[0]).toContain(`<code>${emails.owner}</code>`);
      expect(rows[1]).toContain(`<code>${emails.developer}</code>`);
      for (const row of rows) expect(row).toContain('Escrow shipment registered <code>escrow.shipped</code>');
      const inKorean = (await korean('/console/audit?action=escrow.shipped')).text;
      expect(inKorean).toContain('에스크로 배송 등록 <code>escrow.shipped</code>');
    });

    it('shows the purchase confirmed by the buyer, with no form, and refuses another shipment', async () => {
      await api.as(shop).post(`/v1/test-helpers/payments/${payment.id}/escrow/confirm`).expect(200);
      const escrow = await escrowOf(shop, payment.id);
      const card = escrowCardOf((await members.owner.get(pathOf(payment.id)).expect(200)).text);
      expect(card).toMatch(term('Escrow status', '<span class="badge confirmed">confirmed</span>'));
      expect(card).toMatch(term('Carrier', '우체국택배'));
      expect(card).toMatch(
        term('Confirmed', `${inSeoul(escrow.confirmedAt!)}\\s*<br /><span class="muted">by the buyer</span>`),
      );
      expect(card).not.toContain('Confirms by itself');
      expect(card).toContain('The purchase is confirmed: the payout is scheduled (see Settlement below).');
      expect(card).not.toContain('<form');

      const koreanCard = escrowCardOf((await korean(pathOf(payment.id))).text);
      expect(koreanCard).toMatch(term('에스크로 상태', '<span class="badge confirmed">구매 확정</span>'));
      expect(koreanCard).toContain('<span class="muted">고객이 직접 확정</span>');

      const refused = await ship(payment.id, { carrier: 'CJ대한통운', trackingNumber: '1' }).expect(409);
      expect(refused.text).toContain(
        '<p class="error" role="alert">This escrow no longer takes a shipment: the buyer confirmed or rejected the purchase (or it confirmed by itself).</p>',
      );
    });
  });

  it('shows a purchase confirmed by itself at the auto-confirm time', async () => {
    const payment = await createPayment(shop);
    await complete(shop, payment.id);
    await ship(payment.id, { carrier: '한진택배', trackingNumber: '5555' }, members.developer).expect(303);
    await api.sql(`UPDATE payments SET escrow_auto_confirm_at = now() - interval '1 minute' WHERE id = $1`, [
      payment.id,
    ]);
    // The app's own task may take it first; either way it ends confirmed by itself.
    await api.app.get(EscrowService).confirmDue(100);
    const escrow = await pollUntil(
      () => escrowOf(shop, payment.id),
      (read) => read.status === 'confirmed',
    );
    const card = escrowCardOf((await members.owner.get(pathOf(payment.id)).expect(200)).text);
    expect(card).toMatch(
      term(
        'Confirmed',
        `${inSeoul(escrow.confirmedAt!)}\\s*<br /><span class="muted">automatically: the buyer had not answered by then</span>`,
      ),
    );
    const page = (await korean(pathOf(payment.id))).text;
    expectKorean(page);
    expect(escrowCardOf(page)).toContain('<span class="muted">자동 확정: 그때까지 고객의 응답이 없었습니다</span>');
  });

  it('shows a rejected purchase with the buyer’s reason as written, the review case, and no form', async () => {
    const payment = await createPayment(shop);
    await complete(shop, payment.id);
    await ship(payment.id, { carrier: '롯데택배', trackingNumber: '7777' }, members.developer).expect(303);
    const reason = '상자가 젖은 채 <도착>했어요 & 내용물이 파손됨';
    await api.as(shop).post(`/v1/test-helpers/payments/${payment.id}/escrow/reject`).send({ reason }).expect(200);
    const escrow = await escrowOf(shop, payment.id);
    const page = (await members.developer.get(pathOf(payment.id)).expect(200)).text;
    const card = escrowCardOf(page);
    expect(card).toMatch(term('Escrow status', '<span class="badge rejected">rejected</span>'));
    expect(card).toMatch(term('Rejected', inSeoul(escrow.rejectedAt!)));
    expect(card).toMatch(term('Buyer&#39;s reason', '상자가 젖은 채 &lt;도착&gt;했어요 &amp; 내용물이 파손됨'));
    expect(card).toContain('the payout stays held while payhook&#39;s operators review the case.');
    expect(card).not.toContain('<form');
    expect(card).not.toContain('Confirmed');
    // The review case the rejection opened, its reason in words; the settlement record held.
    expect(page).toContain('The buyer rejected the purchase (escrow)');
    expect(page).toMatch(/<dt>Payout date<\/dt>\s*<dd><span class="badge held">held<\/span>/);

    const inKorean = (await korean(pathOf(payment.id))).text;
    expectKorean(inKorean);
    const koreanCard = escrowCardOf(inKorean);
    expect(koreanCard).toMatch(term('에스크로 상태', '<span class="badge rejected">구매 거절</span>'));
    expect(koreanCard).toMatch(term('고객의 거절 사유', '상자가 젖은 채 &lt;도착&gt;했어요 &amp; 내용물이 파손됨'));
    expect(inKorean).toContain('고객의 구매 거절(구매안전서비스)');
  });

  it('shows an escrow payment’s settlement held until the buyer confirms, then scheduled', async () => {
    // A shop of its own: its sales date holds these two records only.
    const seller = await approvedMerchant(api, { name: '부산 빵집', timeZone: 'Asia/Seoul' });
    const user = await ConsoleClient.login(api, seller.email);
    const plain = await createPayment(seller, {});
    await complete(seller, plain.id);
    const escrowed = await createPayment(seller);
    await complete(seller, escrowed.id);

    const recordsOf = async (): Promise<Settlement[]> =>
      (await api.as(seller).get('/v1/settlements?limit=100').expect(200)).body.data as Settlement[];
    const records = await recordsOf();
    const held = records.find((record) => record.paymentId === escrowed.id)!;
    const scheduled = records.find((record) => record.paymentId === plain.id)!;
    expect(held).toMatchObject({ payoutStatus: 'held', payoutDate: null });
    expect(scheduled.payoutStatus).toBe('scheduled');
    const day = held.salesDate;
    const dayPath = `/console/settlements?mode=test&date=${day}`;
    const won = (amount: number) => `₩${amount.toLocaleString('en-US')}`;

    const list = (await user.get(dayPath).expect(200)).text;
    const rowOf = (page: string, orderId: string) =>
      [...page.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((match) => match[1]).find((row) => row.includes(orderId))!;
    expect(rowOf(list, escrowed.orderId)).toMatch(
      /<td data-label="Payout date">\s*<span class="badge held">held<\/span> <span class="muted">Held until the buyer confirms the purchase \(escrow\)\.<\/span>/,
    );
    expect(rowOf(list, plain.orderId)).toContain(
      `<td data-label="Payout date" class="nowrap">${scheduled.payoutDate}</td>`,
    );
    expect(rowOf(list, plain.orderId)).not.toContain('held');
    expect(list).toContain(`Total of ${day} (2 records)`);
    const heldRow =
      /<tr class="totals">\s*<th scope="row" colspan="4">Of which held until buyers confirm \(1 record\)<\/th>([\s\S]*?)<\/tr>/.exec(
        list,
      );
    expect(heldRow).not.toBeNull();
    expect(heldRow![1]).toContain(`<td data-label="Gross" class="num">${won(held.grossAmount)}</td>`);
    expect(heldRow![1]).toContain(`<td data-label="Net" class="num">${won(held.netAmount)}</td>`);

    // A day longer than a page adds up in the database (dayTotals) instead: the same totals.
    const sums = (rows: Settlement[]) => ({
      count: rows.length,
      grossAmount: rows.reduce((sum, row) => sum + row.grossAmount, 0),
      feeAmount: rows.reduce((sum, row) => sum + row.feeAmount, 0),
      vatAmount: rows.reduce((sum, row) => sum + row.vatAmount, 0),
      netAmount: rows.reduce((sum, row) => sum + row.netAmount, 0),
    });
    await expect(
      api.app.get(SettlementsRepository).dayTotals({ merchantId: seller.merchantId, livemode: false }, day),
    ).resolves.toEqual({ ...sums(records), held: sums([held]) });

    const koreanList = (await korean(dayPath, user)).text;
    expectKorean(koreanList, [plain.orderId, escrowed.orderId]);
    expect(koreanList).toContain('<span class="badge held">보류</span>');
    expect(koreanList).toContain('고객이 구매를 확정할 때까지 지급이 보류됩니다(구매안전서비스).');
    expect(koreanList).toContain('그중 구매 확정 전 지급 보류 (1건)');

    // The payment's page says the same of its record.
    const moneyHeld = (await user.get(pathOf(escrowed.id)).expect(200)).text;
    expect(moneyHeld).toMatch(
      /<dt>Payout date<\/dt>\s*<dd><span class="badge held">held<\/span> <span class="muted">Held until the buyer confirms/,
    );

    // The buyer confirms (the test helper acts for the buyer): the record is scheduled, nothing is held.
    await ship(escrowed.id, { carrier: 'CJ대한통운', trackingNumber: '2222' }, user).expect(303);
    await api.as(seller).post(`/v1/test-helpers/payments/${escrowed.id}/escrow/confirm`).expect(200);
    const released = (await recordsOf()).find((record) => record.paymentId === escrowed.id)!;
    expect(released.payoutStatus).toBe('scheduled');
    expect(released.payoutDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const after = (await user.get(dayPath).expect(200)).text;
    expect(rowOf(after, escrowed.orderId)).toContain(released.payoutDate!);
    expect(rowOf(after, escrowed.orderId)).not.toContain('held');
    expect(after).toContain(`Total of ${day} (2 records)`);
    expect(after).not.toContain('Of which held');
    expect((await user.get(pathOf(escrowed.id)).expect(200)).text).toMatch(
      new RegExp(`<dt>Payout date</dt>\\s*<dd>${released.payoutDate}</dd>`),
    );
  });
});
