import { checkCashReceiptForm } from './cash-receipt-form';
import { renderPayScreen, type BankAccount, type PayScreenPayment } from './pay-screen.view';

const account: BankAccount = { bankName: 'Hana Bank', accountNumber: '123-456789-01-012', holder: 'Payhook Corp' };
const NOW = new Date('2026-11-21T14:05:00Z');

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
    returnUrl: 'https://shop.example/orders/77',
    depositCode: 'ABCDEFGH',
    vouchersApplied: 0,
    cashReceiptAsked: null,
    ...overrides,
  };
}

describe('checkCashReceiptForm', () => {
  it.each([
    ['income_deduction', '010-1234-5678'],
    ['income_deduction', '0111234567'],
    ['income_deduction', '1234 5678 9012 3456'],
    // 사업자등록번호 whose check digit is right.
    ['expense_proof', '220-81-62517'],
    ['expense_proof', '1234567890123'],
  ])('takes %s %s as the API would', (type, number) => {
    expect(checkCashReceiptForm(type, number)).toEqual({ request: { type, identityNumber: number } });
  });

  it.each([
    [undefined, '01012345678', { type: null, problem: 'type' }],
    ['cash', '01012345678', { type: null, problem: 'type' }],
    ['income_deduction', undefined, { type: 'income_deduction', problem: 'missing' }],
    ['income_deduction', '   ', { type: 'income_deduction', problem: 'missing' }],
    ['income_deduction', '02-123-4567', { type: 'income_deduction', problem: 'invalid' }],
    ['income_deduction', '010-1234-567a', { type: 'income_deduction', problem: 'invalid' }],
    // A wrong check digit, and a mobile number where a business number is asked.
    ['expense_proof', '220-81-62518', { type: 'expense_proof', problem: 'invalid' }],
    ['expense_proof', '01012345678', { type: 'expense_proof', problem: 'invalid' }],
    ['expense_proof', '1'.repeat(5000), { type: 'expense_proof', problem: 'invalid' }],
  ] as const)('refuses type %s, number %s', (type, number, error) => {
    expect(checkCashReceiptForm(type, number)).toEqual({ error });
  });
});

describe('the cash receipt section of the payment screen', () => {
  it('offers the two types, the number with its hint, and posts with the CSRF token to its own section', () => {
    const page = renderPayScreen(payment(), 'tok', 'n', account, 'ko', NOW);
    expect(page).toContain(
      '<form method="post" action="/p/AbCdEfGhIjKlMnOpQrStUvWxYz012345/cash-receipt#cash-receipt">',
    );
    expect(page).toMatch(/<input type="hidden" name="csrf" value="tok" \/>\s*<fieldset >/);
    expect(page).toMatch(/value="income_deduction" checked/);
    expect(page).toContain('소득공제 (휴대폰번호)');
    expect(page).toContain('지출증빙 (사업자등록번호)');
    expect(page).toContain('aria-describedby="identity-number-hint"');
    expect(page).not.toContain('aria-invalid="true"');
    // Between the transfer's details and the check link.
    expect(page.indexOf('id="cash-receipt"')).toBeGreaterThan(page.indexOf('id="deposit-code"'));
    expect(page.indexOf('id="cash-receipt"')).toBeLessThan(page.indexOf('입금 확인</a>'));
  });

  it('is there on a live payment too, and not on a finished one', () => {
    expect(renderPayScreen(payment({ livemode: true }), 'tok', 'n', account, 'en', NOW)).toContain(
      'Ask for a cash receipt',
    );
    const finished = renderPayScreen(payment({ status: 'completed' }), '', 'n', account, 'en', NOW);
    expect(finished).not.toContain('cash-receipt');
  });

  it('ties a number error to the field, keeps the type chosen and says so in the title', () => {
    const page = renderPayScreen(payment(), 'tok', 'n', account, 'en', NOW, {
      type: 'expense_proof',
      problem: 'invalid',
    });
    expect(page).toMatch(/<title>Error: ₩15,000/);
    expect(page).toContain(
      '<p class="field-error" id="identity-number-error">This is not a valid business registration',
    );
    expect(page).toContain('aria-describedby="identity-number-error identity-number-hint"');
    expect(page).toContain('aria-invalid="true"');
    expect(page).toMatch(/value="expense_proof" checked/);
    expect(page).not.toMatch(/value="income_deduction" checked/);
    expect(page).not.toMatch(/name="identityNumber"[^>]*value=/);
  });

  it('ties a missing type to the group of choices', () => {
    const page = renderPayScreen(payment(), 'tok', 'n', account, 'ko', NOW, { type: null, problem: 'type' });
    expect(page).toContain('<fieldset aria-describedby="cash-receipt-type-error">');
    expect(page).toContain('<p class="field-error" id="cash-receipt-type-error">발급 용도를 선택해 주세요.</p>');
    expect(page).not.toContain('aria-invalid="true"');
    expect(page).toMatch(/<title>오류: /);
  });

  it('shows what was asked, masked, with the form to change it closed until a change goes wrong', () => {
    const asked = payment({ cashReceiptAsked: { type: 'expense_proof', identityNumber: '******2517' } });
    const page = renderPayScreen(asked, 'tok', 'n', account, 'ko', NOW);
    expect(page).toContain('현금영수증을 신청했습니다');
    expect(page).toContain('<dd>지출증빙</dd>');
    expect(page).toContain('<span class="code" id="cash-receipt-asked-number">******2517</span>');
    expect(page).toMatch(/<details >\s*<summary>신청 내용 변경<\/summary>/);
    expect(page).toMatch(/value="expense_proof" checked/);
    expect(page).toContain('변경 내용 저장');
    const failed = renderPayScreen(asked, 'tok', 'n', account, 'ko', NOW, {
      type: 'income_deduction',
      problem: 'missing',
    });
    expect(failed).toMatch(/<details open>/);
    expect(failed).toMatch(/value="income_deduction" checked/);
  });
});
