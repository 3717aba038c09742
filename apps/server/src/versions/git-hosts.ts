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
  const text = rawUrl.trim()
  // `git@github.com:you/app.git` (scp-like) and `ssh://…`: Sprout pushes over HTTPS only.
  if (/^ssh:\/\//i.test(text) || /^[\w.-]+@[\w.-]+:(?!\/\/)/.test(text)) {
    throw badRequest(GIT_SSH_URL)
  }
  if (!URL.canParse(text) || !/^https?:\/\//i.test(text)) throw badRequest(GIT_NOT_HTTPS_URL)
  const url = new URL(text)
  if (url.username || url.password) {
    throw badRequest('Put the token in the Token field, not in the remote URL.')
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  const port = Number(url.port || (url.protocol === 'http:' ? 80 : 443))
  const listed = allowedHosts.includes(hostname) || allowedHosts.includes(`${hostname}:${port}`)
  const addresses = await lookup(hostname, { all: true }).catch(() => [])
  const privateAddress = addresses.find((entry) => isForbiddenAddress(entry.address))
  // An unlisted private host is named as such whatever its scheme: the admin's way in is the
  // same for http:// (docs/product/versions.md "Push to Git").
  if (privateAddress && !listed) throw badRequest(privateHostText(hostname, privateAddress.address))
  if (url.protocol !== 'https:' && !listed) {
    throw badRequest('The remote URL must start with https://.')
  }
  if (addresses.length === 0) throw badRequest(`The git host ${hostname} could not be found.`)
  const address = addresses[0]?.address ?? hostname
  return { url, hostname, port, address }
}

// docs/product/error-texts.md "Versions" (Download and Push to Git), word for word.
export const GIT_SSH_URL =
  "Sprout pushes over HTTPS, not SSH: enter the repository's HTTPS address, like https://github.com/you/app.git"
export const GIT_NOT_HTTPS_URL =
  "Enter the repository's HTTPS address, like https://github.com/you/app.git"

const privateHostText = (hostname: string, address: string) =>
  `The git host ${hostname} is a private or local address (${address}). An admin can allow it with GIT_ALLOWED_HOSTS.`
