import { describe, expect, it } from 'vitest';
import {
  checkOutboundUrl,
  classifyAddress,
  mappedIpv4Of,
  OutboundAddressRefused,
  resolveOutbound,
  type OutboundPolicy,
} from './outbound-address.js';

const strict: OutboundPolicy = { allowHttpLoopback: false, allowPrivateNetworks: false };
const loopbackAllowed: OutboundPolicy = { allowHttpLoopback: true, allowPrivateNetworks: false };
const privateAllowed: OutboundPolicy = { allowHttpLoopback: false, allowPrivateNetworks: true };

const problemOf = (url: string, policy = strict): string | null => {
  const checked = checkOutboundUrl(url, policy);
  return 'problem' in checked ? checked.problem : null;
};

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd00::1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['::', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['64:ff9b::a00:1', 'forbidden'],
    ['2002:a00:1::1', 'forbidden'],
    ['not-an-ip', 'forbidden'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('keeps 172.15/172.32 (outside 172.16.0.0/12) public', () => {
    expect(classifyAddress('172.15.255.255')).toBe('public');
    expect(classifyAddress('172.32.0.1')).toBe('public');
  });
});

describe('IPv4 addresses inside IPv6 ones', () => {
  it.each([
    // IPv4-mapped: the socket connects to the IPv4 address itself, so it is judged as that address.
    ['::ffff:8.8.8.8', 'public'],
    ['::ffff:808:808', 'public'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['::ffff:a9fe:a9fe', 'forbidden'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::ffff:168.63.129.16', 'metadata'],
    ['::ffff:100.100.100.200', 'metadata'],
    // Every other embedding goes through a translator or a tunnel: refused whatever it carries.
    ['::ffff:0:a9fe:a9fe', 'forbidden'], // SIIT IPv4-translated 169.254.169.254
    ['::ffff:0:8.8.8.8', 'forbidden'],
    ['::a9fe:a9fe', 'forbidden'], // IPv4-compatible
    ['::8.8.8.8', 'forbidden'],
    ['64:ff9b::a9fe:a9fe', 'forbidden'], // NAT64
    ['64:ff9b::8.8.8.8', 'forbidden'],
    ['64:ff9b:1::a00:1', 'forbidden'],
    ['2002:a9fe:a9fe::1', 'forbidden'], // 6to4
    ['2002:808:808::1', 'forbidden'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'forbidden'], // Teredo
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('reads the IPv4 address of mapped forms only', () => {
    expect(mappedIpv4Of('::ffff:a9fe:a9fe')).toBe('169.254.169.254');
    expect(mappedIpv4Of('::FFFF:10.0.0.1')).toBe('10.0.0.1');
    expect(mappedIpv4Of('::ffff:0:a9fe:a9fe')).toBeNull();
    expect(mappedIpv4Of('2606:4700::ffff:a9fe:a9fe')).toBeNull();
    expect(mappedIpv4Of('8.8.8.8')).toBeNull();
  });

  it('refuses the embedded metadata address as a URL, as the attack spelled it', () => {
    for (const policy of [strict, privateAllowed]) {
      expect(problemOf('https://[::ffff:0:a9fe:a9fe]/', policy)).toMatch(/not a routable/);
      expect(problemOf('https://[::ffff:0:169.254.169.254]/', policy)).toMatch(/not a routable/);
      expect(problemOf('https://[::ffff:169.254.169.254]/', policy)).toMatch(/not a routable/);
      expect(problemOf('https://[64:ff9b::169.254.169.254]/', policy)).toMatch(/not a routable/);
      expect(problemOf('https://[::169.254.169.254]/', policy)).toMatch(/not a routable/);
    }
  });
});

describe('cloud metadata addresses', () => {
  it.each(['168.63.129.16', '100.100.100.200', 'fd00:ec2::254', 'fd00:c1::a9fe:a9fe'])(
    '%s is refused even where private networks are allowed',
    (address) => {
      expect(classifyAddress(address)).toBe('metadata');
      const host = address.includes(':') ? `[${address}]` : address;
      expect(problemOf(`https://${host}/`)).toMatch(/cloud metadata/);
      expect(problemOf(`https://${host}/`, privateAllowed)).toMatch(/cloud metadata/);
    },
  );

  it('keeps their neighbours in their own class', () => {
    expect(classifyAddress('168.63.129.17')).toBe('public');
    expect(classifyAddress('100.100.100.201')).toBe('private');
    expect(classifyAddress('fd00:ec2::253')).toBe('private');
  });

  it('refuses a name that resolves to one', async () => {
    await expect(
      resolveOutbound('wireserver.example', 'https:', privateAllowed, () =>
        Promise.resolve([{ address: '168.63.129.16', family: 4 }]),
      ),
    ).rejects.toThrow(/cloud metadata/);
  });
});

describe('checkOutboundUrl', () => {
  it('takes a public https URL with a path and query', () => {
    expect(problemOf('https://hooks.example.org/in/abc?x=1')).toBeNull();
    expect(problemOf('https://8.8.8.8:8443/hook')).toBeNull();
  });

  it('refuses http unless loopback http is allowed, and then only to loopback', () => {
    expect(problemOf('http://hooks.example.org/')).toMatch(/https/);
    expect(problemOf('http://127.0.0.1:8080/hook')).toMatch(/https/);
    expect(problemOf('http://127.0.0.1:8080/hook', loopbackAllowed)).toBeNull();
    expect(problemOf('http://[::1]:8080/hook', loopbackAllowed)).toBeNull();
    expect(problemOf('http://8.8.8.8/hook', loopbackAllowed)).toMatch(/only .* loopback/);
    expect(problemOf('http://hooks.example.org/hook', loopbackAllowed)).toMatch(/only .* loopback/);
    expect(problemOf('http://localhost:8080/hook', loopbackAllowed)).toBeNull();
  });

  it('refuses loopback, private, link-local and numeric forms of them', () => {
    expect(problemOf('https://127.0.0.1/')).toMatch(/loopback/);
    expect(problemOf('https://2130706433/')).toMatch(/loopback/);
    expect(problemOf('https://0x7f.1/')).toMatch(/loopback/);
    expect(problemOf('https://[::ffff:127.0.0.1]/')).toMatch(/loopback/);
    expect(problemOf('https://10.0.0.5/')).toMatch(/private/);
    expect(problemOf('https://169.254.169.254/latest/meta-data')).toMatch(/not a routable/);
    expect(problemOf('https://[fe80::1]/')).toMatch(/not a routable/);
  });

  it('takes private networks when they are allowed, never link-local', () => {
    expect(problemOf('https://10.0.0.5/', privateAllowed)).toBeNull();
    expect(problemOf('https://169.254.169.254/', privateAllowed)).toMatch(/not a routable/);
  });

  it('refuses other schemes, credentials, fragments and non-URLs', () => {
    expect(problemOf('ftp://example.org/')).toMatch(/https/);
    expect(problemOf('file:///etc/passwd')).toMatch(/https/);
    expect(problemOf('https://user:secret@example.org/')).toMatch(/user name or password/);
    expect(problemOf('https://example.org/#x')).toMatch(/fragment/);
    expect(problemOf('example.org/hook')).toMatch(/absolute URL/);
  });
});

describe('resolveOutbound', () => {
  const resolvesTo =
    (...addresses: string[]) =>
    () =>
      Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

  it('answers the addresses of a name that resolves to public ones only', async () => {
    const found = await resolveOutbound('hooks.example.org', 'https:', strict, resolvesTo('93.184.216.34'));
    expect(found.map((entry) => entry.address)).toEqual(['93.184.216.34']);
  });

  it('refuses a name with any private or loopback address among public ones (rebinding)', async () => {
    await expect(
      resolveOutbound('evil.example', 'https:', strict, resolvesTo('93.184.216.34', '10.0.0.1')),
    ).rejects.toBeInstanceOf(OutboundAddressRefused);
    await expect(resolveOutbound('localhost', 'https:', strict, resolvesTo('127.0.0.1'))).rejects.toThrow(
      /loopback/,
    );
    await expect(
      resolveOutbound('metadata.internal', 'https:', privateAllowed, resolvesTo('169.254.169.254')),
    ).rejects.toThrow(/not a routable/);
  });

  it('refuses a name without addresses', async () => {
    await expect(resolveOutbound('nothing.example', 'https:', strict, resolvesTo())).rejects.toThrow(
      /no address/,
    );
  });
});
