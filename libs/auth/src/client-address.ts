import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client an address stands for, for per-client limits (failed logins, operator tokens, voucher
 * PINs, open connections). An IPv6 client usually holds a whole /64 (one home or one VM gets 2^64
 * addresses), so IPv6 counts by its /64; IPv4 counts by the address; an IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`, how a dual-stack socket shows an IPv4 peer) is that IPv4 address.
 * Anything else (no address known) is returned as it is.
 */
export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names our interface, not the client
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  // ::ffff:0:0/96, however written (::ffff:1.2.3.4, 0:0:0:0:0:ffff:1.2.3.4, ::ffff:102:304).
  if (groups.slice(0, 5).every((group) => group === '0') && groups[5] === 'ffff') {
    const [high, low] = groups.slice(6).map((group) => parseInt(group, 16));
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, in lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    // An embedded IPv4 tail (64:ff9b::1.2.3.4) is the last two groups.
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16).toString(16));
}
