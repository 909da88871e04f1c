import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where the service may send requests a user chose the target of (webhooks): the guard against
 * server-side request forgery. A user must not make the service call its own network — the metadata
 * endpoint of a cloud host (169.254.169.254), a database on 10.0.0.5, an admin port on 127.0.0.1.
 * Every address a name resolves to is classified; the check runs at registration and again on every
 * connection (`guardedLookup`), so a name that later resolves elsewhere (DNS rebinding) is refused too.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'metadata' | 'forbidden';

export interface OutboundPolicy {
  /** `http://` (and `https://`) to loopback addresses: tests and receivers on the same machine. */
  readonly allowHttpLoopback: boolean;
  /** RFC 1918, unique-local IPv6 and carrier-grade NAT addresses: receivers inside the deployment. */
  readonly allowPrivateNetworks: boolean;
}

function blockList(v4: readonly string[], v6: readonly string[]): BlockList {
  const list = new BlockList();
  for (const subnet of v4) {
    const [network = '', prefix = '32'] = subnet.split('/');
    list.addSubnet(network, Number(prefix), 'ipv4');
  }
  for (const subnet of v6) {
    const [network = '', prefix = '128'] = subnet.split('/');
    list.addSubnet(network, Number(prefix), 'ipv6');
  }
  return list;
}

const loopback = blockList(['127.0.0.0/8'], ['::1/128']);
const privateNetworks = blockList(
  ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10'],
  ['fc00::/7'],
);
/**
 * Cloud metadata and platform endpoints outside link-local, refused whatever the policy: a private
 * network may be allowed, these never are. Azure's WireServer (a public address), Alibaba Cloud's
 * metadata (inside carrier-grade NAT), and the IPv6 metadata endpoints of AWS and Oracle Cloud (inside
 * unique-local). The link-local ones (169.254.169.254 of most clouds, 169.254.170.2 of ECS) fall in
 * `169.254.0.0/16`, which is refused too.
 */
const cloudMetadata = blockList(
  ['168.63.129.16/32', '100.100.100.200/32'],
  ['fd00:ec2::254/128', 'fd00:c1::a9fe:a9fe/128'],
);
/** Never a receiver: unspecified, link-local (cloud metadata), multicast, reserved, documentation, tunnels. */
const forbidden = blockList(
  [
    '0.0.0.0/8',
    '169.254.0.0/16',
    '192.0.0.0/24',
    '192.0.2.0/24',
    '192.88.99.0/24', // 6to4 relay anycast
    '198.18.0.0/15',
    '198.51.100.0/24',
    '203.0.113.0/24',
    '224.0.0.0/4',
    '240.0.0.0/4',
  ],
  [
    // IPv6 forms that carry an IPv4 address a translator or tunnel would deliver to, whichever it is:
    '::/96', // unspecified and the deprecated IPv4-compatible form (::a.b.c.d)
    '::ffff:0:0:0/96', // SIIT IPv4-translated (::ffff:0:a.b.c.d)
    '64:ff9b::/96', // NAT64 well-known prefix: would reach any IPv4 address, private ones included
    '64:ff9b:1::/48', // NAT64 local-use prefixes
    '2002::/16', // 6to4
    '2001::/32', // Teredo
    '100::/64', // discard-only
    '2001:2::/48', // benchmarking
    '2001:10::/28', // ORCHID
    '2001:20::/28', // ORCHIDv2
    '2001:db8::/32', // documentation
    '3fff::/20', // documentation
    'fe80::/10',
    'fec0::/10',
    'ff00::/8',
  ],
);

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted quad folded in). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The IPv4 address of an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), or `null`. A socket given the
 * mapped form connects to that IPv4 address itself, with no translator in between, so it is judged by
 * the IPv4 rules, exactly as the address it is.
 */
export function mappedIpv4Of(address: string): string | null {
  if (isIP(address) !== 6) return null;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).some((group) => group !== 0) || groups[5] !== 0xffff) return null;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

const HTTP_LOOPBACK_ONLY = 'http:// is only accepted for loopback receivers; use https://';

export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'forbidden';
  const mapped = mappedIpv4Of(address);
  if (mapped !== null) return classifyAddress(mapped);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(address, type)) return 'loopback';
  if (cloudMetadata.check(address, type)) return 'metadata';
  if (forbidden.check(address, type)) return 'forbidden';
  if (privateNetworks.check(address, type)) return 'private';
  return 'public';
}

/** Why `address` may not be called under `policy` with `protocol`, or `null` when it may. */
export function refusalOf(
  address: string,
  protocol: 'http:' | 'https:',
  policy: OutboundPolicy,
): string | null {
  const kind = classifyAddress(address);
  if (kind === 'loopback') {
    return policy.allowHttpLoopback ? null : `${address} is a loopback address`;
  }
  if (protocol === 'http:') return HTTP_LOOPBACK_ONLY;
  if (kind === 'metadata') return `${address} is a cloud metadata address`;
  if (kind === 'forbidden') return `${address} is not a routable public address`;
  if (kind === 'private' && !policy.allowPrivateNetworks) return `${address} is on a private network`;
  return null;
}

/** A URL the service may call: https (or http to loopback when allowed), no credentials in it. */
export function checkOutboundUrl(text: string, policy: OutboundPolicy): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'must be an https:// URL' };
  if (url.protocol === 'http:' && !policy.allowHttpLoopback) return { problem: 'must be an https:// URL' };
  if (url.username !== '' || url.password !== '') {
    return { problem: 'must not carry a user name or password; the signature authenticates the sender' };
  }
  if (url.hash !== '') return { problem: 'must not have a #fragment' };
  const host = hostOf(url);
  // Plain http is for a receiver on this machine only: an address literal or `localhost` (resolved and
  // checked like any name), never a name that would have to resolve to loopback to be accepted.
  if (url.protocol === 'http:' && isIP(host) === 0 && !/(^|\.)localhost$/i.test(host)) {
    return { problem: HTTP_LOOPBACK_ONLY };
  }
  if (isIP(host) !== 0) {
    const refusal = refusalOf(host, url.protocol, policy);
    if (refusal !== null) return { problem: refusal };
  }
  return { url };
}

/** The host without IPv6 brackets or a trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

export class OutboundAddressRefused extends Error {
  override readonly name = 'OutboundAddressRefused';
}

type LookupFn = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemLookup: LookupFn = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses);
    });
  });

/**
 * Every address `hostname` resolves to, refused if any of them is not allowed: a name with one public
 * and one private address could be steered to the private one.
 */
export async function resolveOutbound(
  hostname: string,
  protocol: 'http:' | 'https:',
  policy: OutboundPolicy,
  lookup: LookupFn = systemLookup,
): Promise<readonly LookupAddress[]> {
  const addresses =
    isIP(hostname) !== 0 ? [{ address: hostname, family: isIP(hostname) }] : await lookup(hostname);
  if (addresses.length === 0) throw new OutboundAddressRefused(`${hostname} has no address`);
  for (const { address } of addresses) {
    const refusal = refusalOf(address, protocol, policy);
    if (refusal !== null) throw new OutboundAddressRefused(`${hostname}: ${refusal}`);
  }
  return addresses;
}

/**
 * A `lookup` for `http.request` that resolves, checks and connects to the checked address only, so the
 * address connected to is the one that passed (no second resolution in between).
 */
export function guardedLookup(
  protocol: 'http:' | 'https:',
  policy: OutboundPolicy,
  lookup: LookupFn = systemLookup,
): LookupFunction {
  return (hostname, options, callback): void => {
    resolveOutbound(hostname.replace(/^\[(.*)\]$/, '$1'), protocol, policy, lookup).then(
      (addresses) => {
        if (options.all === true) callback(null, [...addresses]);
        else {
          const [first] = addresses;
          callback(null, first?.address ?? '', first?.family ?? 4);
        }
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), '', 4);
      },
    );
  };
}
