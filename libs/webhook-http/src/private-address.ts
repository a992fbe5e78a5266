import { type LookupAddress, lookup } from 'node:dns';
import { BlockList, type LookupFunction, isIP } from 'node:net';

/** Error code of a webhook target that is, or resolves to, an address the dispatcher must not reach. */
export const TARGET_FORBIDDEN_CODE = 'ERR_WEBHOOK_TARGET_FORBIDDEN';

const forbiddenV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", incl. the unspecified address
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
];

const forbiddenV6: [string, number][] = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b:1::', 48], // local-use NAT64
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT): an IPv4 address behind a translator, any of them
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: a tunnel to the IPv4 address it encodes (obscured), any of them
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, incl. the AWS metadata service fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
];

const v4BlockList = new BlockList();
for (const [network, prefix] of forbiddenV4) v4BlockList.addSubnet(network, prefix, 'ipv4');
const v6BlockList = new BlockList();
for (const [network, prefix] of forbiddenV6) v6BlockList.addSubnet(network, prefix, 'ipv6');

/**
 * True for loopback, private, link-local, metadata, multicast and reserved addresses, including IPv6 forms that
 * carry an IPv4 address (mapped, NAT64, 6to4), and the tunnels and translations that reach one we cannot
 * check (Teredo, IPv4-translated). Anything that does not parse as `family` is forbidden too.
 */
export function isForbiddenAddress(address: string, family: 4 | 6): boolean {
  const bare = address.replace(/%.*$/, ''); // zone id of a link-local address
  if (isIP(bare) !== family) return true;
  if (family === 4) return v4BlockList.check(bare, 'ipv4');
  const embedded = embeddedIPv4(bare);
  if (embedded !== null) return v4BlockList.check(embedded, 'ipv4');
  return v6BlockList.check(bare, 'ipv6');
}

/** The IPv4 address carried by an IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) or 6to4 (2002::/16) one. */
function embeddedIPv4(address: string): string | null {
  const words = ipv6Words(address);
  if (words === null) return null;
  const isMapped = words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff;
  const isNat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((word) => word === 0);
  if (isMapped || isNat64) return dottedQuad(words[6], words[7]);
  if (words[0] === 0x2002) return dottedQuad(words[1], words[2]);
  return null;
}

/** The eight 16-bit words of a valid IPv6 address (no zone id). */
function ipv6Words(address: string): number[] | null {
  let text = address;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[2].split('.').map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = dotted[1].endsWith('::') ? dotted[1] : dotted[1].slice(0, -1);
  }
  const [head, rest] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const left = parse(head);
  const right = [...parse(rest), ...tail];
  const fill = rest === undefined ? 0 : 8 - left.length - right.length; // what '::' stands for
  const words = [...left, ...Array<number>(Math.max(fill, 0)).fill(0), ...right];
  return words.length === 8 && words.every((word) => Number.isInteger(word)) ? words : null;
}

function dottedQuad(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

export function targetForbiddenError(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`blocked: ${hostname} resolves to a private or reserved address`), {
    code: TARGET_FORBIDDEN_CODE,
  });
}

/**
 * A `lookup` for sockets that refuses, after DNS resolution, any host with a forbidden address among its
 * results: checking every address stops a name that mixes public and private records (DNS rebinding), and
 * connecting to the address just checked leaves no second resolution to race.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '');
      if (addresses.length === 0) {
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      }
      if (!allowPrivate && addresses.some(({ address, family }) => isForbiddenAddress(address, family as 4 | 6))) {
        return callback(targetForbiddenError(hostname), '');
      }
      // Answer in the shape asked for: net asks for all addresses when it races IPv4 and IPv6.
      if (options.all === true) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
