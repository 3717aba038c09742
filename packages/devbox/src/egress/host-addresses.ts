import { addressKey, embeddedIpv4, parseIpAddress } from './ip-address.ts'
import { readHostAddresses } from './read-host-addresses.ts'

/**
 * Every address of this machine's own interfaces, which boxes may not reach even when it is a
 * public address: on a server with a public IP, Sprout and every service bound to all
 * interfaces would otherwise be reachable through the egress proxy.
 */
export type HostAddresses = {
  /** True when the literal is, or carries as embedded IPv4, an address of this machine. */
  includes: (address: string) => boolean
  /**
   * Reads the interfaces now: each connection's decision starts with it, so an address that
   * appeared a moment ago is refused at once (issue 29: it was relayed for up to 2 s).
   */
  refresh: () => void
}

/**
 * How long a reading of the interfaces is trusted between refreshes; a reading costs about a
 * tenth of a ms idle, nearer 1 ms on a loaded machine.
 */
const defaultMaxAgeMs = 2_000

function readKeys(readAddresses: () => readonly string[]): Set<string> {
  const keys = new Set<string>()
  for (const address of readAddresses()) {
    const parsed = parseIpAddress(address)
    if (parsed) keys.add(addressKey(parsed))
  }
  return keys
}

/** Read at creation, then again on a check once the reading is older than `maxAgeMs`. */
export function createHostAddresses(
  options: { readAddresses?: () => readonly string[]; maxAgeMs?: number; now?: () => number } = {},
): HostAddresses {
  const readAddresses = options.readAddresses ?? readHostAddresses
  const maxAgeMs = options.maxAgeMs ?? defaultMaxAgeMs
  const now = options.now ?? Date.now
  let keys: Set<string> | undefined
  let readAt = 0
  const current = (fresh = false) => {
    if (fresh || keys === undefined || now() - readAt >= maxAgeMs) {
      try {
        keys = readKeys(readAddresses)
      } catch {
        // Without a reading, no address can be known not to be this machine's: refuse them all.
        keys = undefined
      }
      readAt = now()
    }
    return keys
  }
  current()

  return {
    refresh: () => {
      current(true)
    },
    includes: (address) => {
      const own = current()
      const parsed = parseIpAddress(address)
      if (own === undefined || parsed === undefined) return true
      if (own.has(addressKey(parsed))) return true
      const inner = parsed.family === 6 ? embeddedIpv4(parsed.groups) : undefined
      return inner !== undefined && own.has(addressKey({ family: 4, value: inner.ipv4 }))
    },
  }
}
