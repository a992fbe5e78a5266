import { clientKey } from './client-address';

describe('clientKey', () => {
  it('counts an IPv6 client by its /64, however the address is written', () => {
    const key = '2001:db8:aa:bb::/64';
    expect(clientKey('2001:db8:aa:bb::1')).toBe(key);
    expect(clientKey('2001:0db8:00aa:00bb:ffff:1:2:3')).toBe(key);
    expect(clientKey('2001:DB8:AA:BB:0:0:0:9')).toBe(key);
    expect(clientKey('2001:db8:aa:bb:1234::1.2.3.4')).toBe(key);
    expect(clientKey('2001:db8:aa:bc::1')).not.toBe(key);
  });

  it('expands :: at either end and drops a zone id', () => {
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('keeps IPv4, also when it comes IPv4-mapped, as one address', () => {
    expect(clientKey('1.2.3.4')).toBe('1.2.3.4');
    expect(clientKey('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(clientKey('::FFFF:1.2.3.5')).toBe('1.2.3.5');
    expect(clientKey('::ffff:1.2.3.4')).not.toBe(clientKey('::ffff:1.2.3.5'));
  });

  it('keeps an IPv4-mapped address per IPv4 address however its groups are written', () => {
    expect(clientKey('0:0:0:0:0:ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(clientKey('::ffff:102:304')).toBe('1.2.3.4');
    expect(clientKey('0000:0000:0000:0000:0000:FFFF:0102:0305')).toBe('1.2.3.5');
    expect(clientKey('::0:ffff:c0a8:ff01')).toBe('192.168.255.1');
    // Only ::ffff:0:0/96 is IPv4-mapped: a neighbour prefix stays an IPv6 /64.
    expect(clientKey('::fffe:102:304')).toBe('0:0:0:0::/64');
  });

  it('returns what is not an address as it is', () => {
    expect(clientKey('unknown')).toBe('unknown');
  });
});
