import { BlockList, isIP } from 'node:net'

/**
 * Addresses a box may never reach through the egress proxy: this machine, private networks,
 * link-local and cloud metadata, carrier-grade NAT, multicast and reserved ranges
 * (docs/architecture/devbox.md, "Network").
 */
const forbiddenRanges: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]

const blockList = new BlockList()
for (const [network, prefix, family] of forbiddenRanges)
  blockList.addSubnet(network, prefix, family)

/** The IPv4 address an IPv6 address carries (v4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4). */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase()
  const dotted = /^(?:::ffff:(?:0:)?|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (dotted) return dotted[1]
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower)
  if (hex) {
    const high = Number.parseInt(hex[1] ?? '0', 16)
    const low = Number.parseInt(hex[2] ?? '0', 16)
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower)
  if (sixToFour) {
    const high = Number.parseInt(sixToFour[1] ?? '0', 16)
    const low = Number.parseInt(sixToFour[2] ?? '0', 16)
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`
  }
  return undefined
}

/** True when a box must not connect to this literal IP address (anything not an IP is refused too). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return true
  if (family === 4) return blockList.check(address, 'ipv4')
  if (blockList.check(address, 'ipv6')) return true
  const inner = embeddedIpv4(address)
  return inner !== undefined && (isIP(inner) !== 4 || blockList.check(inner, 'ipv4'))
}
