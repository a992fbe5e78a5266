import { type LookupAddress, type LookupOptions } from 'node:dns';
import { TARGET_FORBIDDEN_CODE, guardedLookup, isForbiddenAddress } from './private-address';

describe('isForbiddenAddress', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback, end of range', '127.255.255.254'],
    ['unspecified', '0.0.0.0'],
    ['this network', '0.1.2.3'],
    ['private 10/8', '10.0.0.1'],
    ['private 10/8, end of range', '10.255.255.255'],
    ['private 172.16/12', '172.16.0.1'],
    ['private 172.16/12, end of range', '172.31.255.255'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local', '169.254.1.1'],
    ['cloud metadata', '169.254.169.254'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['carrier-grade NAT, end of range', '100.127.255.255'],
    ['multicast', '224.0.0.1'],
    ['multicast, end of range', '239.255.255.255'],
    ['reserved', '240.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['benchmarking', '198.18.0.1'],
    ['benchmarking, end of range', '198.19.255.255'],
    ['IETF protocol assignments', '192.0.0.170'],
    ['documentation', '192.0.2.10'],
    ['documentation', '198.51.100.10'],
    ['documentation', '203.0.113.10'],
  ])('forbids IPv4 %s (%s)', (_range, address) => {
    expect(isForbiddenAddress(address, 4)).toBe(true);
  });

  it.each([
    ['loopback', '::1'],
    ['unspecified', '::'],
    ['IPv4-compatible', '::127.0.0.1'],
    ['unique local', 'fc00::1'],
    ['unique local', 'fdff:ffff::1'],
    ['AWS metadata', 'fd00:ec2::254'],
    ['link-local', 'fe80::1'],
    ['link-local with zone id', 'fe80::1%eth0'],
    ['link-local, end of range', 'febf:ffff::1'],
    ['site-local', 'fec0::1'],
    ['multicast', 'ff02::1'],
    ['documentation', '2001:db8::1'],
    ['discard-only', '100::1'],
    ['local-use NAT64', '64:ff9b:1::a00:1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback, hex form', '::ffff:7f00:1'],
    ['IPv4-mapped private, upper case', '::FFFF:10.0.0.1'],
    ['IPv4-mapped metadata, expanded', '0:0:0:0:0:ffff:a9fe:a9fe'],
    ['NAT64 of private', '64:ff9b::10.0.0.1'],
    ['NAT64 of metadata', '64:ff9b::a9fe:a9fe'],
    ['6to4 of private', '2002:c0a8:0101::1'],
    ['6to4 of loopback', '2002:7f00:1::'],
    // Teredo hides the IPv4 server and client it reaches (the client XOR-ed): never a target.
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['Teredo, to a private client', '2001::ffff:f5ff:fffe'],
    ['IPv4-translated loopback', '::ffff:0:7f00:1'],
    ['IPv4-translated public', '::ffff:0:808:808'],
  ])('forbids IPv6 %s (%s)', (_range, address) => {
    expect(isForbiddenAddress(address, 6)).toBe(true);
  });

  it.each([
    ['8.8.8.8', 4],
    ['1.1.1.1', 4],
    ['172.15.255.255', 4],
    ['172.32.0.1', 4],
    ['100.63.255.255', 4],
    ['100.128.0.1', 4],
    ['198.20.0.1', 4],
    ['223.255.255.255', 4],
    ['2606:4700::1111', 6],
    ['2001:4860:4860::8888', 6],
    ['::ffff:8.8.8.8', 6],
    ['64:ff9b::808:808', 6],
    ['2002:808:808::1', 6],
    ['fbff::1', 6],
    ['fe00::1', 6],
  ] as const)('allows public %s', (address, family) => {
    expect(isForbiddenAddress(address, family)).toBe(false);
  });

  it('forbids what is not an address of the given family', () => {
    expect(isForbiddenAddress('example.com', 4)).toBe(true);
    expect(isForbiddenAddress('8.8.8.8', 6)).toBe(true);
    expect(isForbiddenAddress('2606:4700::1111', 4)).toBe(true);
    expect(isForbiddenAddress('', 4)).toBe(true);
  });
});

describe('guardedLookup', () => {
  type Answer = { error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };
  const resolve = (allowPrivate: boolean, hostname: string, options: LookupOptions) =>
    new Promise<Answer>((done) =>
      guardedLookup(allowPrivate)(hostname, options, (error, address, family) => done({ error, address, family })),
    );

  it.each(['localhost', '127.0.0.1'])('blocks %s when private targets are not allowed', async (hostname) => {
    const { error } = await resolve(false, hostname, {});
    expect(error?.message).toBe(`blocked: ${hostname} resolves to a private or reserved address`);
    expect(error?.code).toBe(TARGET_FORBIDDEN_CODE);
  });

  it('blocks an IPv4-mapped literal', async () => {
    const { error } = await resolve(false, '::ffff:127.0.0.1', { all: true });
    expect(error?.code).toBe(TARGET_FORBIDDEN_CODE);
  });

  it('allows localhost when private targets are allowed, answering with one address', async () => {
    const { error, address, family } = await resolve(true, 'localhost', {});
    expect(error).toBeNull();
    expect(typeof address).toBe('string');
    expect(isForbiddenAddress(address as string, family as 4 | 6)).toBe(true);
  });

  it('answers with every address when asked for all', async () => {
    const { error, address } = await resolve(true, '127.0.0.1', { all: true });
    expect(error).toBeNull();
    expect(address).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('respects the family asked for', async () => {
    const { error, address, family } = await resolve(true, '127.0.0.1', { family: 4 });
    expect(error).toBeNull();
    expect(address).toBe('127.0.0.1');
    expect(family).toBe(4);
  });

  it('allows a public IP literal without touching the network', async () => {
    const { error, address } = await resolve(false, '8.8.8.8', {});
    expect(error).toBeNull();
    expect(address).toBe('8.8.8.8');
  });
});
