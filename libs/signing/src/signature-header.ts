// Spec §5.2 step 1: anything but exactly `t=<digits>,v1=<64 lowercase hex>` is rejected. The integration
// test's `review` scenario sends near-misses (reordered, uppercase, spaces, no v1), so no leniency here.
// 15 digits keeps the timestamp well inside Number.MAX_SAFE_INTEGER.
const SIGNATURE_HEADER_PATTERN = /^t=(\d{1,15}),v1=([0-9a-f]{64})$/;
const V1_HEX_PATTERN = /^[0-9a-f]{64}$/;

export interface ParsedSignatureHeader {
  timestamp: number;
  v1: string;
}

export function buildSignatureHeader(timestamp: number, v1Hex: string): string {
  // Refuse to emit a header our own strict parser (and merchants following the spec) would reject.
  assertUnixSeconds(timestamp);
  if (!V1_HEX_PATTERN.test(v1Hex)) {
    throw new RangeError('v1 must be 64 lowercase hex characters');
  }
  return `t=${timestamp},v1=${v1Hex}`;
}

export function parseSignatureHeader(header: string): ParsedSignatureHeader | null {
  // Callers may pass whatever the HTTP layer handed them; a non-string is simply malformed.
  if (typeof header !== 'string') return null;
  const match = SIGNATURE_HEADER_PATTERN.exec(header);
  if (!match) return null;
  return { timestamp: Number(match[1]), v1: match[2] };
}

/** Throws unless `timestamp` is a whole, non-negative number of seconds that fits the header format. */
export function assertUnixSeconds(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || timestamp > 999_999_999_999_999) {
    throw new RangeError('timestamp must be a non-negative integer number of unix seconds');
  }
}
