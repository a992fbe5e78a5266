import { formatTimeLeft, formatWon, returnUrlWith } from './format';

describe('pay screen formatting', () => {
  it.each([
    [15000, '₩15,000'],
    [1, '₩1'],
    [10_000_000_000, '₩10,000,000,000'],
  ])('shows %d won as %s', (amount, text) => {
    expect(formatWon(amount)).toBe(text);
  });

  it.each([
    [1_800_000, '30 min 0 s'],
    [61_500, '1 min 1 s'],
    [59_999, '59 s'],
    [-5, '0 s'],
    [7_260_000, '2 h 1 min'],
  ])('shows %d ms left as %s', (ms, text) => {
    expect(formatTimeLeft(ms)).toBe(text);
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
});
