/** Made once: toLocaleString would build a formatter on every call, and every page shows a few amounts. */
const WON_DIGITS = new Intl.NumberFormat('en-US');

/** `₩15,000`: whole won with thousands separators. */
export function formatWon(amount: number): string {
  return `₩${WON_DIGITS.format(amount)}`;
}

/** returnUrl with paymentId, orderId and status set, keeping every parameter the merchant put there. */
export function returnUrlWith(returnUrl: string, payment: { id: string; orderId: string; status: string }): string {
  const url = new URL(returnUrl);
  url.searchParams.set('paymentId', payment.id);
  url.searchParams.set('orderId', payment.orderId);
  url.searchParams.set('status', payment.status);
  return url.toString();
}
