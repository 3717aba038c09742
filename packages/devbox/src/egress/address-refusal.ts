import { isForbiddenAddress, isNeverReachableAddress } from './forbidden-addresses.ts'
import type { HostAddresses } from './host-addresses.ts'

/**
 * Why a box may not connect to what `hostname` resolved to, or undefined when it may. Every
 * address must pass: a name that also resolves to a local one is refused whole.
 */
export function addressRefusal(
  hostname: string,
  addresses: readonly string[],
  hostAddresses: HostAddresses,
  /** The server's own npm registry: a mirror on a private or documentation address is allowed. */
  isRegistry = false,
): string | undefined {
  if (addresses.length === 0) return `the name ${hostname} resolves to no address`
  // At connect time: the caller connects to the checked address right after this answer.
  hostAddresses.refresh()
  const forbidden = addresses.find(isRegistry ? isNeverReachableAddress : isForbiddenAddress)
  if (forbidden !== undefined) {
    return `${hostname} resolves to a local or private address (${forbidden}), which dev boxes may not reach`
  }
  const own = addresses.find((address) => hostAddresses.includes(address))
  if (own !== undefined) {
    return `${hostname} resolves to an address of this machine (${own}), which dev boxes may not reach`
  }
  return undefined
}
