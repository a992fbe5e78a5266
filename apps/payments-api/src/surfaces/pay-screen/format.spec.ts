import { formatWon, returnUrlWith } from './format';

describe('pay screen formatting', () => {
  it.each([
    [15000, '₩15,000'],
    [1, '₩1'],
    [10_000_000_000, '₩10,000,000,000'],
  ])('shows %d won as %s', (amount, text) => {
    expect(formatWon(amount)).toBe(text);
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
