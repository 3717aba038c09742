import { lookup } from 'node:dns/promises'
import { isForbiddenAddress } from '@sprout/devbox/egress/forbidden-addresses.ts'
import { badRequest } from '../http/app-error.ts'

/** Where a push goes: the URL git gets, and the address it must connect to (no second lookup). */
export type GitTarget = { url: URL; hostname: string; port: number; address: string }

/**
 * docs/product/versions.md "Push to Git": public hosts over HTTPS; a private or loopback host
 * only when GIT_ALLOWED_HOSTS lists it (host or host:port), and then plain HTTP is allowed too.
 * Every address the name resolves to is checked, and git is pinned to the one checked.
 */
export async function checkGitTarget(rawUrl: string, allowedHosts: string[]): Promise<GitTarget> {
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    throw badRequest('The remote URL is not a valid URL. Use the HTTPS URL of the repository.')
  }
  if (url.username || url.password) {
    throw badRequest('Put the token in the Token field, not in the remote URL.')
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const port = Number(url.port || (url.protocol === 'http:' ? 80 : 443))
  const listed = allowedHosts.includes(hostname) || allowedHosts.includes(`${hostname}:${port}`)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && listed)) {
    throw badRequest('The remote URL must start with https://.')
  }
  const addresses = await lookup(hostname, { all: true }).catch(() => [])
  if (addresses.length === 0) throw badRequest(`The git host ${hostname} could not be found.`)
  const privateAddress = addresses.find((entry) => isForbiddenAddress(entry.address))
  if (privateAddress && !listed) {
    throw badRequest(
      `The git host ${hostname} is a private or local address (${privateAddress.address}). An admin can allow it with GIT_ALLOWED_HOSTS.`,
    )
  }
  const address = addresses[0]?.address ?? hostname
  return { url, hostname, port, address }
}
