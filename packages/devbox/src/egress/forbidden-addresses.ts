import { embeddedIpv4, type IpAddress, parseIpAddress } from './ip-address.ts'

/**
 * IPv4 ranges a box may never reach through the egress proxy
 * (docs/architecture/devbox.md "Network"); the host's own interface addresses are refused by
 * `host-addresses.ts`.
 */
const forbiddenIpv4Ranges: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
]

const forbiddenIpv4Spans = forbiddenIpv4Ranges.map(([network, prefix]) => {
  const parsed = parseIpAddress(network)
  const start = parsed?.family === 4 ? parsed.value : 0
  return { start, end: start + 2 ** (32 - prefix) }
})

const isForbiddenIpv4 = (value: number) =>
  forbiddenIpv4Spans.some(({ start, end }) => value >= start && value < end)

/**
 * IPv6 is allowed only inside global unicast 2000::/3, minus 2001::/23 (IETF: Teredo, benchmarking,
 * ORCHID), 2001:db8::/32 and 3fff::/20 (documentation). Outside it lie ::, ::1, ::/96,
 * 64:ff9b:1::/48, 100::/64, unique-local, link-local, site-local and multicast. Forms carrying an
 * IPv4 address (mapped, SIIT, NAT64, 6to4, ISATAP) are judged by that address too.
 */
function isForbiddenIpv6(groups: readonly number[]): boolean {
  const [first = 0, second = 0] = groups
  const inner = embeddedIpv4(groups)
  if (inner !== undefined && isForbiddenIpv4(inner.ipv4)) return true
  if (inner?.translated) return false
  if ((first & 0xe000) !== 0x2000) return true
  if (first === 0x2001 && second < 0x0200) return true
  if (first === 0x2001 && second === 0x0db8) return true
  return first === 0x3fff && second < 0x1000
}

function isForbiddenIp(address: IpAddress): boolean {
  return address.family === 4 ? isForbiddenIpv4(address.value) : isForbiddenIpv6(address.groups)
}

/** True when a box must not connect to this literal IP address (anything not an IP is refused too). */
export function isForbiddenAddress(address: string): boolean {
  const parsed = parseIpAddress(address)
  return parsed === undefined || isForbiddenIp(parsed)
}

/**
 * Ranges refused even for the npm registry the server itself uses (a team's mirror may sit on a
 * private or documentation address): this machine's loopback, "this network", link-local with
 * cloud metadata, multicast and reserved.
 */
const neverReachableIpv4Spans = (
  [
    ['0.0.0.0', 8],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const
).map(([network, prefix]) => {
  const parsed = parseIpAddress(network)
  const start = parsed?.family === 4 ? parsed.value : 0
  return { start, end: start + 2 ** (32 - prefix) }
})

const isNeverReachableIpv4 = (value: number) =>
  neverReachableIpv4Spans.some(({ start, end }) => value >= start && value < end)

/** True when not even the configured registry may be reached at this address. */
export function isNeverReachableAddress(address: string): boolean {
  const parsed = parseIpAddress(address)
  if (parsed === undefined) return true
  if (parsed.family === 4) return isNeverReachableIpv4(parsed.value)
  const inner = embeddedIpv4(parsed.groups)
  if (inner !== undefined) return isNeverReachableIpv4(inner.ipv4)
  const [first = 0] = parsed.groups
  const unspecifiedOrLoopback = parsed.groups.slice(0, 7).every((group) => group === 0)
  // fe80::/10 link-local, ff00::/8 multicast.
  return unspecifiedOrLoopback || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00
}
