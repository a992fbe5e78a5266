/** `₩15,000`: whole won with thousands separators. */
export function formatWon(amount: number): string {
  return `₩${amount.toLocaleString('en-US')}`;
}

/** "29 min 59 s" style, rounded down; "0 s" once the time is up. */
export function formatTimeLeft(ms: number): string {
  const totalSeconds = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${seconds} s`;
  return `${seconds} s`;
}

/** returnUrl with paymentId, orderId and status set, keeping every parameter the merchant put there. */
export function returnUrlWith(returnUrl: string, payment: { id: string; orderId: string; status: string }): string {
  const url = new URL(returnUrl);
  url.searchParams.set('paymentId', payment.id);
  url.searchParams.set('orderId', payment.orderId);
  url.searchParams.set('status', payment.status);
  return url.toString();
}
