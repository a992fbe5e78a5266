import { formatKoreanClock, formatKoreanDay, formatWon, returnUrlWith } from './format';

describe('pay screen formatting', () => {
  it.each([
    [15000, '₩15,000'],
    [1, '₩1'],
    [0, '₩0'],
    [999, '₩999'],
    [1000, '₩1,000'],
    [100_000, '₩100,000'],
    [10_000_000_000, '₩10,000,000,000'],
    [-1_234_567, '₩-1,234,567'],
  ])('shows %d won as %s', (amount, text) => {
    expect(formatWon(amount)).toBe(text);
  });

  it('groups as Intl does for every amount', () => {
    const intl = new Intl.NumberFormat('en-US');
    for (let amount = -100_000; amount <= 2_000_000; amount += 997)
      expect(formatWon(amount)).toBe(`₩${intl.format(amount)}`);
  });

  it('adds the outcome to returnUrl and keeps the merchant query', () => {
    const url = returnUrlWith('https://shop.example/orders/7?from=payhook&lang=ko#top', {
      id: 'pay_1',
      orderId: 'order 7',
      status: 'completed',
    });
    expect(url).toBe(
      'https://shop.example/orders/7?from=payhook&lang=ko&paymentId=pay_1&orderId=order+7&status=completed#top',
    );
  });

  it("shows an escrow's day and time on the Korean clock, whatever the server's zone", () => {
    // 15:30 UTC on 7 December is 00:30 on 8 December in Seoul.
    const instant = new Date('2026-12-07T15:30:00Z');
    expect(formatKoreanDay(instant, 'ko')).toBe('2026년 12월 8일');
    expect(formatKoreanDay(instant, 'en')).toBe('December 8, 2026');
    expect(formatKoreanClock(instant)).toBe('00:30');
  });
});
