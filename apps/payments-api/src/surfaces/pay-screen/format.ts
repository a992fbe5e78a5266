const WON_DIGITS = new Intl.NumberFormat('en-US');

/** `₩15,000`: whole won with thousands separators (every page shows a few: grouped by hand when whole). */
export function formatWon(amount: number): string {
  if (!Number.isSafeInteger(amount) || amount < 0) return `₩${WON_DIGITS.format(amount)}`;
  const digits = String(amount);
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return `₩${grouped}`;
}

/** returnUrl with paymentId, orderId and status set, keeping every parameter the merchant put there. */
export function returnUrlWith(returnUrl: string, payment: { id: string; orderId: string; status: string }): string {
  const url = new URL(returnUrl);
  url.searchParams.set('paymentId', payment.id);
  url.searchParams.set('orderId', payment.orderId);
  url.searchParams.set('status', payment.status);
  return url.toString();
}
