import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { visitorAddressOf } from '../cluster/relayed-client.ts'
import type { AppEnv } from '../http/app-env.ts'
import { tooManyRequests } from '../http/app-error.ts'

/** How many within how long (AUTH_RATE_LIMIT and the others: `MAX/SECONDS`). */
export type WindowLimit = { max: number; windowSeconds: number }

type Window = { count: number; resetAt: number }

export function clientAddress(context: Context<AppEnv>, trustProxy: boolean): string {
  const incoming = context.env?.incoming
  if (incoming) return visitorAddressOf(incoming, trustProxy)
  // In-process requests (tests) have no connection: only the header, when trusted.
  const forwarded = trustProxy ? context.req.header('x-forwarded-for')?.split(',')[0]?.trim() : ''
  return forwarded || 'local'
}

/** Fixed windows by key, in memory (decision 004). */
export function createWindows(limit: WindowLimit) {
  const windows = new Map<string, Window>()
  return {
    /** Counts one for `key`: the seconds to wait when that is past the limit, else undefined. */
    take(key: string): number | undefined {
      const now = Date.now()
      if (windows.size > 10_000) {
        for (const [stored, window] of windows) if (window.resetAt <= now) windows.delete(stored)
      }
      let window = windows.get(key)
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + limit.windowSeconds * 1000 }
        windows.set(key, window)
      }
      window.count += 1
      if (window.count <= limit.max) return undefined
      return Math.max(1, Math.ceil((window.resetAt - now) / 1000))
    },
    /** Takes back one count of `key` (an attempt that turned out not to count). */
    giveBack(key: string) {
      const window = windows.get(key)
      if (window && window.count > 0) window.count -= 1
    },
  }
}

const waitText = (retryAfter: number) => `Please wait ${retryAfter} seconds and try again.`

/** A fixed-window limiter per client address and endpoint (sign-in, sign-up, mails, passwords). */
export function rateLimit(options: WindowLimit & { trustProxy: boolean }) {
  const windows = createWindows(options)
  return createMiddleware<AppEnv>(async (context, next) => {
    const retryAfter = windows.take(
      `${context.req.path}|${clientAddress(context, options.trustProxy)}`,
    )
    if (retryAfter !== undefined) {
      throw tooManyRequests(`Too many attempts. ${waitText(retryAfter)}`, retryAfter)
    }
    await next()
  })
}

/** The account a request is about (an address in its body, or the signed-in user), if any. */
export type AccountOf = (context: Context<AppEnv>) => Promise<string | undefined>

/**
 * Failed password attempts per account, from any client address (decision 004): each attempt
 * counts as it starts, so attempts side by side cannot all slip in, and one that succeeds is
 * given back. An address that signed in to the account before may still try when the account
 * is over its limit, so an attacker elsewhere cannot lock its owner out (its own per-address
 * limit still holds).
 */
export function failedAttemptLimit(
  options: WindowLimit & { trustProxy: boolean; accountOf: AccountOf; message: string },
) {
  const windows = createWindows(options)
  const knownAddresses = new Map<string, string[]>()
  return createMiddleware<AppEnv>(async (context, next) => {
    const account = await options.accountOf(context)
    if (account === undefined) return next()
    const address = clientAddress(context, options.trustProxy)
    const isKnown = knownAddresses.get(account)?.includes(address) === true
    const retryAfter = windows.take(account)
    if (retryAfter !== undefined && !isKnown) {
      throw tooManyRequests(`${options.message} ${waitText(retryAfter)}`, retryAfter)
    }
    await next()
    if (context.res.status >= 400) return
    windows.giveBack(account)
    rememberAddress(knownAddresses, account, address)
  })
}

/** Up to 5 addresses per account, the latest last; the oldest accounts go past 10,000. */
function rememberAddress(known: Map<string, string[]>, account: string, address: string) {
  const addresses = (known.get(account) ?? []).filter((stored) => stored !== address)
  known.delete(account)
  known.set(account, [...addresses, address].slice(-5))
  if (known.size > 10_000) {
    const oldest = known.keys().next().value
    if (oldest !== undefined) known.delete(oldest)
  }
}

/** Every request counts, per account: each may send a mail (verification, password reset). */
export function mailLimit(options: WindowLimit & { accountOf: AccountOf; message: string }) {
  const windows = createWindows(options)
  return createMiddleware<AppEnv>(async (context, next) => {
    const account = await options.accountOf(context)
    const retryAfter = account === undefined ? undefined : windows.take(account)
    if (retryAfter !== undefined) {
      throw tooManyRequests(`${options.message} ${waitText(retryAfter)}`, retryAfter)
    }
    await next()
  })
}
