import { closeSync, openSync, readSync } from 'node:fs'
import os from 'node:os'

/** Enough for the local routes of any machine Sprout runs on, without reading a router's full table. */
const procReadLimit = 1 << 20

/** The start of a /proc file, or '' where there is none (not Linux, no /proc). */
function readProc(file: string): string {
  let descriptor: number | undefined
  try {
    descriptor = openSync(file, 'r')
    const chunks: Buffer[] = []
    let length = 0
    while (length < procReadLimit) {
      const chunk = Buffer.allocUnsafe(1 << 16)
      const read = readSync(descriptor, chunk, 0, chunk.length, null)
      if (read === 0) break
      chunks.push(chunk.subarray(0, read))
      length += read
    }
    return Buffer.concat(chunks).toString('latin1')
  } catch {
    return ''
  } finally {
    if (descriptor !== undefined) closeSync(descriptor)
  }
}

/** IPv4 addresses the kernel delivers locally: `/32 host LOCAL` leaves of its routing tries. */
export function localIpv4FromFibTrie(text: string): string[] {
  const addresses: string[] = []
  let leaf: string | undefined
  for (const line of text.split('\n')) {
    const node = /\|-- (\S+)/.exec(line)
    if (node) leaf = node[1]
    else if (leaf && /^\s*\/32 host LOCAL/.test(line)) addresses.push(leaf)
  }
  return addresses
}

/** Every IPv6 address of every interface, up or down: the first column of `/proc/net/if_inet6`. */
export function ipv6FromIfInet6(text: string): string[] {
  return [...text.matchAll(/^([0-9a-f]{32}) /gm)].map(
    (match) => match[1]?.match(/.{4}/g)?.join(':') ?? '',
  )
}

/**
 * Every address of this machine's interfaces. `os.networkInterfaces()` skips interfaces that
 * are up without a carrier, whose addresses still answer locally, so on Linux the kernel's own
 * lists are read too.
 */
export function readHostAddresses(): string[] {
  const fromInterfaces = Object.values(os.networkInterfaces()).flatMap((entries) =>
    (entries ?? []).map((entry) => entry.address),
  )
  return [
    ...fromInterfaces,
    ...localIpv4FromFibTrie(readProc('/proc/net/fib_trie')),
    ...ipv6FromIfInet6(readProc('/proc/net/if_inet6')),
  ]
}
