import type { Browser, BrowserContext, Page } from 'playwright-core';
import { artifactPath, connectChromium, expectClean } from '../support/browser';
import { SHIPMENT, shippedEscrow, type ShippedEscrow } from '../support/escrow-buyer';
import { PaymentsApiHarness, type TestMerchant } from '../support/payments-api.harness';
import { SmtpInbox } from '../support/smtp-inbox';
import { timeFor } from '../support/time-budget';

const START_MS = timeFor({ database: 1, app: 1, browser: 1 });

/** What each language's page says where the spec looks. */
const WORDS = {
  ko: {
    heading: 'Test Shop 주문 상품',
    confirm: '구매 확정',
    reject: '구매 거절',
    reason: '거절 사유',
    badReason: '거절 사유를 1~500자로 적어 주세요',
    confirmed: '구매를 확정했습니다',
    rejected: '구매를 거절했습니다',
    alreadyConfirmed: '이 구매는 이미 확정되었습니다. 아무것도 바뀌지 않았습니다.',
    errorTitle: '오류: ',
  },
  en: {
    heading: 'Your order from Test Shop',
    confirm: 'Confirm the purchase',
    reject: 'Reject the purchase',
    reason: 'Reason for rejecting',
    badReason: 'Write a reason of 1 to 500 characters',
    confirmed: 'You confirmed the purchase',
    rejected: 'You rejected the purchase',
    alreadyConfirmed: 'This purchase was already confirmed: nothing changed.',
    errorTitle: 'Error: ',
  },
} as const;

/**
 * The escrow buyer's page (issue 52) as a buyer meets it: the link read from the e-mail a real SMTP
 * server got, opened on a phone 360 px wide, in Korean and in English; a reason that is not one sent
 * back at its field; the purchase confirmed with the keyboard and JavaScript off, which schedules the
 * payout; the same page's other forms, sent after, change nothing. axe-clean (WCAG 2.1 AA) in every state.
 */
describe("the escrow buyer's page in a real browser", () => {
  let inbox: SmtpInbox;
  let api: PaymentsApiHarness;
  let browser: Browser;
  let merchant: TestMerchant;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    [api, browser] = await Promise.all([PaymentsApiHarness.start({ SMTP_URL: inbox.url }), connectChromium()]);
    merchant = await api.merchantWithKey('test');
  }, START_MS);
  afterAll(async () => {
    await browser.close();
    await api.stop();
    await inbox.stop();
  });

  /**
   * The e-mailed link, opened on this harness: it is `{PAY_URL}/e/<token>`, and the harness answers on
   * 127.0.0.1 at a port of its own, as the payment screen's browser specs open a payUrl.
   */
  function opened(escrow: ShippedEscrow): string {
    expect(escrow.link).toBe(`${api.env.PAY_URL.replace(/\/+$/, '')}${escrow.path}`);
    return `${api.baseUrl}${new URL(escrow.link).pathname}`;
  }

  /** A phone 360 px wide. The page has no script; axe needs JavaScript on to run, some buyers have it off. */
  async function phone(locale: string, { javaScript = true } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 2,
      locale,
      javaScriptEnabled: javaScript,
    });
    return { context, page: await context.newPage() };
  }

  /** Sends a form with its button: the status of the POST's answer (303 back to the page, 400, 409), its page loaded. */
  async function submit(page: Page, send: () => Promise<void>): Promise<number> {
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.request().method() === 'POST'),
      page.waitForEvent('load'),
      send(),
    ]);
    return response.status();
  }

  const press = (page: Page, button: string) => () => page.getByRole('button', { name: button, exact: true }).click();

  const escrowOf = async (id: string) =>
    (await api.as(merchant).get(`/v1/payments/${id}`).expect(200)).body.data.escrow as Record<string, unknown>;
  const escrowEventsOf = async (id: string) =>
    ((await api.as(merchant).get(`/v1/events?paymentId=${id}`).expect(200)).body.data as { type: string }[]).filter(
      (event) => event.type.startsWith('escrow.'),
    );
  const settlementOf = async (id: string) =>
    ((await api.as(merchant).get('/v1/settlements').expect(200)).body.data as Record<string, unknown>[]).find(
      (record) => record.paymentId === id,
    );

  it('is confirmed once from the e-mailed link, by keyboard without JavaScript; the payout is scheduled, later forms change nothing', async () => {
    const escrow = await shippedEscrow(api, merchant, inbox);
    const url = opened(escrow);
    expect(await settlementOf(escrow.id)).toMatchObject({ payoutStatus: 'held', payoutDate: null });

    // In English, as a browser set to it gets the page.
    const english = await phone('en-US');
    await english.page.goto(url);
    await expect(
      english.page.getByRole('heading', { level: 1, name: WORDS.en.heading, exact: true }).isVisible(),
    ).resolves.toBe(true);
    await expect(english.page.locator('#tracking-number').innerText()).resolves.toBe(SHIPMENT.trackingNumber);
    await expectClean(english.page, 'the page, en', 360);
    await english.page.screenshot({ path: artifactPath('escrow-buyer-page-en-360.png'), fullPage: true });
    await english.context.close();

    // In Korean, the default; a reason of spaces only comes back at its field, kept, and nothing changes.
    const korean = await phone('ko-KR');
    await korean.page.goto(url);
    await expect(
      korean.page.getByRole('heading', { level: 1, name: WORDS.ko.heading, exact: true }).isVisible(),
    ).resolves.toBe(true);
    await expectClean(korean.page, 'the page, ko', 360);
    await korean.page.screenshot({ path: artifactPath('escrow-buyer-page-ko-360.png'), fullPage: true });
    for (const label of [WORDS.ko.confirm, WORDS.ko.reject]) {
      const box = (await korean.page.getByRole('button', { name: label, exact: true }).boundingBox())!;
      expect({ label, tall: box.height >= 44 }).toEqual({ label, tall: true });
    }
    const reason = korean.page.getByRole('textbox', { name: WORDS.ko.reason });
    await reason.fill('   ');
    await expect(submit(korean.page, press(korean.page, WORDS.ko.reject))).resolves.toBe(400);
    await expect(korean.page.title()).resolves.toMatch(new RegExp(`^${WORDS.ko.errorTitle}`));
    expect(new URL(korean.page.url()).hash).toBe('#reject');
    await expect(korean.page.locator('#reject-reason-error').innerText()).resolves.toContain(WORDS.ko.badReason);
    await expect(reason.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(reason.getAttribute('aria-describedby')).resolves.toBe('reject-reason-error reject-reason-hint');
    await expect(reason.inputValue()).resolves.toBe('   ');
    await expectClean(korean.page, 'a reason that is not one, ko', 360);
    await korean.page.screenshot({ path: artifactPath('escrow-buyer-page-error-ko-360.png'), fullPage: true });
    expect((await escrowOf(escrow.id)).status).toBe('shipped');

    // The same page open in two more tabs before the purchase is confirmed.
    const [confirmTab, rejectTab] = [await korean.context.newPage(), await korean.context.newPage()];
    for (const tab of [confirmTab, rejectTab]) await tab.goto(url);

    // Confirmed with the keyboard alone, JavaScript off: Tab from the top of the page to the button, Enter.
    const noScript = await phone('ko-KR', { javaScript: false });
    await noScript.page.goto(url);
    let focused = '';
    for (let tabs = 0; tabs < 10 && focused !== WORDS.ko.confirm; tabs += 1) {
      await noScript.page.keyboard.press('Tab');
      focused = await noScript.page.evaluate<string>('document.activeElement?.textContent?.trim() ?? ""');
    }
    expect(focused).toBe(WORDS.ko.confirm);
    await expect(submit(noScript.page, () => noScript.page.keyboard.press('Enter'))).resolves.toBe(303);
    expect(new URL(noScript.page.url()).pathname).toBe(escrow.path);
    await expect(noScript.page.locator('#outcome').innerText()).resolves.toContain(WORDS.ko.confirmed);
    await expect(noScript.page.getByRole('button').count()).resolves.toBe(0);
    await noScript.context.close();

    const confirmed = await escrowOf(escrow.id);
    expect(confirmed).toMatchObject({ status: 'confirmed', rejectedAt: null });
    expect(await settlementOf(escrow.id)).toMatchObject({
      payoutStatus: 'scheduled',
      payoutDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    await expect(escrowEventsOf(escrow.id)).resolves.toEqual([
      expect.objectContaining({ type: 'escrow.confirmed', data: expect.objectContaining({ autoConfirmed: false }) }),
    ]);

    // The final state, as the buyer sees it on coming back.
    await korean.page.goto(url);
    await expect(korean.page.locator('#outcome').innerText()).resolves.toContain(WORDS.ko.confirmed);
    await expectClean(korean.page, 'confirmed, ko', 360);
    await korean.page.screenshot({ path: artifactPath('escrow-buyer-page-confirmed-ko-360.png'), fullPage: true });

    // The other tabs' forms, sent after: a second confirm, and a reject.
    await expect(submit(confirmTab, press(confirmTab, WORDS.ko.confirm))).resolves.toBe(409);
    await expect(confirmTab.getByRole('alert').innerText()).resolves.toBe(WORDS.ko.alreadyConfirmed);
    await expectClean(confirmTab, 'a second confirm refused, ko', 360);
    await rejectTab.getByRole('textbox', { name: WORDS.ko.reason }).fill('상품이 오지 않았습니다');
    await expect(submit(rejectTab, press(rejectTab, WORDS.ko.reject))).resolves.toBe(409);
    await expect(rejectTab.getByRole('alert').innerText()).resolves.toBe(WORDS.ko.alreadyConfirmed);
    await korean.context.close();

    await expect(escrowOf(escrow.id)).resolves.toEqual(confirmed);
    await expect(escrowEventsOf(escrow.id)).resolves.toHaveLength(1);
    expect(await settlementOf(escrow.id)).toMatchObject({ payoutStatus: 'scheduled' });
  });

  it('is rejected with a reason in English: the reason shown back, the payout still held', async () => {
    const escrow = await shippedEscrow(api, merchant, inbox);
    const { context, page } = await phone('en-US');
    await page.goto(opened(escrow));
    await page
      .getByRole('textbox', { name: WORDS.en.reason })
      .fill('The box arrived crushed.\nThe cup inside is broken.');
    await expect(submit(page, press(page, WORDS.en.reject))).resolves.toBe(303);
    await expect(page.locator('#outcome').innerText()).resolves.toContain(WORDS.en.rejected);
    await expect(page.locator('#reject-reason-kept').innerText()).resolves.toBe(
      'The box arrived crushed.\nThe cup inside is broken.',
    );
    await expectClean(page, 'rejected, en', 360);
    await page.screenshot({ path: artifactPath('escrow-buyer-page-rejected-en-360.png'), fullPage: true });
    await context.close();
    await expect(escrowOf(escrow.id)).resolves.toMatchObject({
      status: 'rejected',
      rejectReason: 'The box arrived crushed.\nThe cup inside is broken.',
    });
    expect(await settlementOf(escrow.id)).toMatchObject({ payoutStatus: 'held', payoutDate: null });
  });
});
