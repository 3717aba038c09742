/**
 * IP literals, parsed strictly: IPv4 as four decimal octets without leading zeros, IPv6 as eight
 * groups (`::` and a dotted-quad tail accepted, zone ids not). The egress proxy refuses whatever
 * this does not parse.
 */
export type IpAddress = { family: 4; value: number } | { family: 6; groups: number[] }

function parseIpv4(text: string): number | undefined {
  const parts = text.split('.')
  if (parts.length !== 4) return undefined
  let value = 0
  for (const part of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part)) return undefined
    const octet = Number(part)
    if (octet > 255) return undefined
    value = value * 256 + octet
  }
  return value
}

/** The groups of one side of `::`; only the address's last piece may be a dotted quad. */
function groupsOf(text: string, endsAddress: boolean): number[] | undefined {
  if (text === '') return []
  const pieces = text.split(':')
  const groups: number[] = []
  for (const [index, piece] of pieces.entries()) {
    if (endsAddress && index === pieces.length - 1 && piece.includes('.')) {
      const ipv4 = parseIpv4(piece)
      if (ipv4 === undefined) return undefined
      groups.push(ipv4 >>> 16, ipv4 & 0xffff)
    } else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
      groups.push(Number.parseInt(piece, 16))
    } else {
      return undefined
    }
  }
  return groups
}

function parseIpv6(text: string): number[] | undefined {
  const halves = text.split('::')
  if (halves.length > 2) return undefined
  const head = groupsOf(halves[0] ?? '', halves.length === 1)
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '', true) : []
  if (head === undefined || tail === undefined) return undefined
  if (halves.length === 1) return head.length === 8 ? head : undefined
  if (head.length + tail.length > 7) return undefined
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail]
}

export function parseIpAddress(text: string): IpAddress | undefined {
  const ipv4 = parseIpv4(text)
  if (ipv4 !== undefined) return { family: 4, value: ipv4 }
  const groups = parseIpv6(text)
  return groups === undefined ? undefined : { family: 6, groups }
}

/**
 * The IPv4 address an IPv6 address carries. `translated` when it stands for that host (v4-mapped,
 * SIIT, NAT64 `64:ff9b::/96`); otherwise a tunnel endpoint (6to4 `2002::/16`, ISATAP
 * `…:0:5efe:a.b.c.d`, `…:200:5efe:a.b.c.d`).
 */
export function embeddedIpv4(
  groups: readonly number[],
): { ipv4: number; translated: boolean } | undefined {
  const group = (index: number) => groups[index] ?? 0
  const startsWith = (prefix: number[]) => prefix.every((value, index) => group(index) === value)
  const low = group(6) * 0x10000 + group(7)
  const mapped = startsWith([0, 0, 0, 0, 0, 0xffff])
  const siit = startsWith([0, 0, 0, 0, 0xffff, 0])
  const nat64 = startsWith([0x64, 0xff9b, 0, 0, 0, 0])
  if (mapped || siit || nat64) return { ipv4: low, translated: true }
  if ((group(4) & 0xfcff) === 0 && group(5) === 0x5efe) return { ipv4: low, translated: false }
  if (group(0) === 0x2002) return { ipv4: group(1) * 0x10000 + group(2), translated: false }
  return undefined
}

/** One spelling per address, to compare literals however they were written. */
export function addressKey(address: IpAddress): string {
  return address.family === 4 ? `4:${address.value}` : `6:${address.groups.join(':')}`
}
