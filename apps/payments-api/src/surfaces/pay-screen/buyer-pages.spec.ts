import type { PaymentStatus } from '@payhook/contracts';
import type { RedemptionResult } from '../../money/vouchers';
import { LOCALES, type Locale } from '../../platform/i18n/locale';
import { englishWords, visibleText } from '../../../../../test/support/korean-text';
import { CATALOGS } from './messages';
import {
  renderForbidden,
  renderNotFound,
  renderPayScreen,
  type BankAccount,
  type PayScreenPayment,
} from './pay-screen.view';
import { renderVoucherPage } from './voucher-page.view';
import { renderEscrowPage, type BuyerEscrowPage, type EscrowPageNotice } from './escrow-page.view';
import type { CashReceiptFormError } from './cash-receipt-form';

/**
 * Every page a buyer can see, in both languages, rendered from fixtures (the views are pure): none
 * may show a catalog key, ICU syntax or the wrong `lang`, and a Korean page shows no English words
 * beyond the data in it and a few names that stay as they are.
 */
const NOW = new Date('2026-11-21T14:05:00Z'); // 23:05 in Seoul
const account: BankAccount = { bankName: 'Hana Bank', accountNumber: '123-456789-01-012', holder: 'Payhook Corp' };

function payment(overrides: Partial<PayScreenPayment> = {}): PayScreenPayment {
  return {
    id: 'pay_01JXAMPLE',
    merchantId: 'mer_01JXAMPLE',
    suffix: 'AbCdEfGhIjKlMnOpQrStUvWxYz012345',
    merchantName: 'Gangnam Books',
    merchantTimeZone: 'Asia/Seoul',
    orderId: 'order-2026-77',
    amount: 15_000,
    status: 'pending',
    livemode: false,
    expiresAt: new Date('2026-11-21T14:22:00Z'),
    returnUrl: 'https://shop.example/orders/77?from=payhook',
    depositCode: 'ABCDEFGH',
    vouchersApplied: 0,
    cashReceiptAsked: null,
    ...overrides,
  };
}

const VOUCHER_RESULTS: Record<string, RedemptionResult> = {
  'throttled 1 min': { kind: 'throttled', retryAfterSeconds: 40 },
  'throttled 5 min': { kind: 'throttled', retryAfterSeconds: 300 },
  'too many pins': { kind: 'too_many_pins' },
  'not payable': { kind: 'not_payable', status: 'expired' },
  applied: {
    kind: 'applied',
    pins: [
      { pinLast4: '3456', result: 'accepted', faceValue: 10_000 },
      { pinLast4: '1234', result: 'invalid', faceValue: null },
      { pinLast4: '4444', result: 'unknown', faceValue: null },
      { pinLast4: '9999', result: 'used', faceValue: null },
    ],
    covered: 10_000,
    outstanding: 5_000,
    completed: false,
  },
};

function escrow(overrides: Partial<BuyerEscrowPage> = {}): BuyerEscrowPage {
  return {
    merchantName: 'Gangnam Books',
    orderId: 'order-2026-77',
    amount: 15_000,
    livemode: false,
    status: 'shipped',
    carrier: 'CJ',
    trackingNumber: '6012-3456-7890',
    autoConfirmAt: new Date('2026-11-30T15:00:00Z'), // 00:00 on 1 December in Seoul
    confirmedAt: null,
    autoConfirmed: null,
    rejectedAt: null,
    rejectReason: null,
    ...overrides,
  };
}

const CONFIRMED = { status: 'confirmed', confirmedAt: new Date('2026-11-22T05:04:00Z'), autoConfirmed: false } as const;
const REJECTED = {
  status: 'rejected',
  rejectedAt: new Date('2026-11-22T05:04:00Z'),
  rejectReason: '상자가 젖은 채로\n도착했습니다 <파손>',
} as const;

/** A page's text without its tags, white space as one space (visibleText would drop an English page's all). */
const readText = (page: string) => page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

function escrowPage(locale: Locale, overrides: Partial<BuyerEscrowPage> = {}, notice?: EscrowPageNotice): string {
  return renderEscrowPage(escrow(overrides), { path: '/e/TOKEN', csrfToken: 'c', nonce: 'n', locale, notice });
}

const ASKED = { type: 'income_deduction', identityNumber: '*******5678' } as const;

const CASH_RECEIPT_ERRORS: CashReceiptFormError[] = [
  { type: null, problem: 'type' },
  { type: 'income_deduction', problem: 'missing' },
  { type: 'income_deduction', problem: 'invalid' },
  { type: 'expense_proof', problem: 'invalid' },
];

/** Every variant of every buyer page, in a locale. */
function pages(locale: Locale): [string, string][] {
  const out: [string, string][] = [
    ['pending, test', renderPayScreen(payment(), 'csrf', 'n', account, locale, NOW)],
    ['pending, live', renderPayScreen(payment({ livemode: true }), '', 'n', account, locale, NOW)],
    [
      'pending, vouchers applied, due tomorrow',
      renderPayScreen(
        payment({ vouchersApplied: 10_000, expiresAt: new Date('2026-11-22T03:00:00Z') }),
        'csrf',
        'n',
        account,
        locale,
        NOW,
      ),
    ],
    [
      'pending, cash receipt asked',
      renderPayScreen(payment({ cashReceiptAsked: ASKED }), 'c', 'n', account, locale, NOW),
    ],
    ...CASH_RECEIPT_ERRORS.map((error): [string, string] => [
      `pending, cash receipt form with ${error.problem} (${error.type})`,
      renderPayScreen(payment(), 'c', 'n', account, locale, NOW, error),
    ]),
    [
      'pending, live, changing the cash receipt asked with an error',
      renderPayScreen(payment({ livemode: true, cashReceiptAsked: ASKED }), 'c', 'n', account, locale, NOW, {
        type: 'expense_proof',
        problem: 'invalid',
      }),
    ],
    ['pending, no deposit code', renderPayScreen(payment({ depositCode: null }), 'c', 'n', account, locale, NOW)],
    ...(['completed', 'failed', 'canceled', 'expired'] as PaymentStatus[]).map((status): [string, string] => [
      `finished ${status}`,
      renderPayScreen(payment({ status }), '', 'n', account, locale, NOW),
    ]),
    ['vouchers', renderVoucherPage(payment(), 'csrf', 'n', locale)],
    [
      'vouchers, live, applied',
      renderVoucherPage(payment({ livemode: true, vouchersApplied: 5_000 }), 'c', 'n', locale),
    ],
    ...Object.entries(VOUCHER_RESULTS).map(([name, result]): [string, string] => [
      `vouchers, ${name}`,
      renderVoucherPage(payment({ vouchersApplied: 10_000 }), 'csrf', 'n', locale, result),
    ]),
    ['escrow, shipped', escrowPage(locale)],
    ['escrow, shipped, live', escrowPage(locale, { livemode: true })],
    ['escrow, shipped, a wrong reason', escrowPage(locale, {}, { kind: 'invalid_reason', reason: '   ' })],
    ['escrow, confirmed', escrowPage(locale, CONFIRMED)],
    ['escrow, confirmed by itself', escrowPage(locale, { ...CONFIRMED, autoConfirmed: true })],
    ['escrow, rejected', escrowPage(locale, REJECTED)],
    ['escrow, confirmed, a move refused', escrowPage(locale, CONFIRMED, { kind: 'refused' })],
    ['escrow, rejected, a move refused', escrowPage(locale, REJECTED, { kind: 'refused' })],
    ['not found', renderNotFound('n', locale)],
    ['forbidden, form expired', renderForbidden('n', locale, 'forbidden.formExpired')],
    ['forbidden, live', renderForbidden('n', locale, 'forbidden.liveComplete')],
    ['forbidden, escrow form expired', renderForbidden('n', locale, 'forbidden.escrowFormExpired')],
  ];
  return out;
}

/** The fixtures' own data: names, ids and codes are shown as they are. */
const DATA = [account.bankName, account.holder, payment().merchantName, payment().orderId, 'ABCD-EFGH', 'CJ'];

describe('buyer pages in Korean and English', () => {
  const keys = Object.keys(CATALOGS.en);

  describe.each(LOCALES)('%s', (locale) => {
    it.each(pages(locale))('%s: right lang, no raw key, no ICU syntax', (_name, page) => {
      expect(page).toContain(`<html lang="${locale}">`);
      const text = visibleText(page);
      for (const key of keys) expect(text).not.toContain(key);
      expect(text).not.toMatch(/[{}]/);
      expect(text).not.toMatch(/undefined|NaN|\[object/);
    });
  });

  it.each(pages('ko'))('Korean %s shows no English words', (_name, page) => {
    expect(englishWords(page, DATA)).toEqual([]);
  });

  it('shows the deadline as a time on the merchant clock, with the day when it is not today', () => {
    const [ko, en] = (['ko', 'en'] as const).map((locale) =>
      renderPayScreen(payment(), 'c', 'n', account, locale, NOW),
    );
    expect(ko).toContain('23:22까지');
    expect(en).toContain('until 23:22');
    const tomorrow = payment({ expiresAt: new Date('2026-11-22T03:00:00Z') });
    expect(renderPayScreen(tomorrow, 'c', 'n', account, 'ko', NOW)).toContain('11월 22일 12:00까지');
    expect(renderPayScreen(tomorrow, 'c', 'n', account, 'en', NOW)).toContain('until 12:00 on November 22');
  });

  it('names the zone of a merchant not on Korean time, whose clock a shopper may not share', () => {
    const abroad = payment({ merchantTimeZone: 'America/Los_Angeles' });
    expect(renderPayScreen(abroad, 'c', 'n', account, 'en', NOW)).toContain('until 06:22 PST');
    expect(renderPayScreen(abroad, 'c', 'n', account, 'ko', NOW)).toContain('06:22 PST까지');
  });

  it('counts minutes with the plural English needs ("1 minute", not "1 minutes")', () => {
    const once = renderVoucherPage(payment(), 'c', 'n', 'en', VOUCHER_RESULTS['throttled 1 min']);
    expect(once).toContain('Try again in 1 minute.');
    expect(renderVoucherPage(payment(), 'c', 'n', 'en', VOUCHER_RESULTS['throttled 5 min'])).toContain('5 minutes');
    expect(renderVoucherPage(payment(), 'c', 'n', 'ko', VOUCHER_RESULTS['throttled 5 min'])).toContain('5분 후에');
  });

  it('keeps amounts as ₩15,000 in both languages, the test buttons in Korean as 완료/실패/취소', () => {
    for (const locale of LOCALES) {
      expect(renderPayScreen(payment(), 'c', 'n', account, locale, NOW)).toContain('₩15,000');
    }
    const ko = visibleText(renderPayScreen(payment(), 'c', 'n', account, 'ko', NOW));
    expect(ko).toContain('테스트');
    for (const word of ['완료', '실패', '취소', '입금 확인', '무통장입금', '입금은행', '예금주'])
      expect(ko).toContain(word);
  });

  it("shows an escrow's days on the Korean clock: the auto-confirm day, the buyer's move with its time", () => {
    expect(readText(escrowPage('ko'))).toContain('2026년 12월 1일 00:00(한국 시간)까지');
    expect(readText(escrowPage('en'))).toContain('at 00:00 Korea time on December 1, 2026');
    expect(readText(escrowPage('ko', CONFIRMED))).toContain('2026년 11월 22일 14:04(한국 시간)에 구매를 확정했습니다');
    expect(readText(escrowPage('en', { ...CONFIRMED, autoConfirmed: true }))).toContain(
      'The purchase confirmed by itself on November 22, 2026 at 14:04 Korea time',
    );
  });

  it('keeps a wrong reason in its field, escaped, the error tied to it; a settled escrow has no form', () => {
    const page = escrowPage('en', {}, { kind: 'invalid_reason', reason: '<script>x</script>\n ' });
    expect(page).toMatch(/<title>Error: /);
    expect(page).toContain('&lt;script&gt;x&lt;/script&gt;\n </textarea');
    expect(page).toContain('aria-describedby="reject-reason-error reject-reason-hint"');
    expect(page).toContain('aria-invalid="true"');
    for (const settled of [CONFIRMED, REJECTED]) {
      const html = escrowPage('en', settled, { kind: 'refused' });
      expect(html).not.toContain('<form');
      expect(html).toContain('role="alert"');
    }
    expect(escrowPage('ko', REJECTED)).toContain('상자가 젖은 채로\n도착했습니다 &lt;파손&gt;');
  });
});
