import { randomUUID } from 'node:crypto'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import type { OrganizationContext, SessionRecord, SessionUser } from '../http/app-env.ts'

export type ResolvedSession = {
  user: SessionUser
  session: SessionRecord
  /** Set by requireSession on first use; the cache is flushed when roles change. */
  isPlatformAdmin?: boolean
}
/** `null` records that the user is not a member, so a refusal is cached too. */
export type MembershipCache = TtlCache<OrganizationContext | null>

type Entry<Value> = { value: Value; expiresAt: number }

/** A bounded map whose entries expire; the oldest entry goes first when it is full. */
export class TtlCache<Value> {
  readonly #entries = new Map<string, Entry<Value>>()
  readonly #ttlMs: number
  readonly #maxEntries: number

  constructor(ttlMs: number, maxEntries: number) {
    this.#ttlMs = ttlMs
    this.#maxEntries = maxEntries
  }

  get(key: string): Value | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= Date.now()) {
      this.#entries.delete(key)
      return undefined
    }
    return entry.value
  }

  set(key: string, value: Value, expiresAt = Date.now() + this.#ttlMs): void {
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest !== undefined) this.#entries.delete(oldest)
    }
    this.#entries.set(key, { value, expiresAt: Math.min(expiresAt, Date.now() + this.#ttlMs) })
  }

  async getOrLoad(key: string, load: () => Promise<Value>): Promise<Value> {
    const cached = this.get(key)
    if (cached !== undefined) return cached
    const value = await load()
    this.set(key, value)
    return value
  }

  clear(): void {
    this.#entries.clear()
  }
}

const channel = 'sprout_auth_cache'

export type AuthCache = ReturnType<typeof createAuthCache>

/**
 * Sessions and memberships, cached briefly (decision 003). Every better-auth write flushes them
 * here and, through NOTIFY, in every other process, so a revoked session or removed member is
 * refused on the next request.
 */
export function createAuthCache(database: DatabaseHandle, options: { ttlMs?: number } = {}) {
  const ttlMs = options.ttlMs ?? 60_000
  const instanceId = randomUUID()
  const sessions = new TtlCache<ResolvedSession>(ttlMs, 20_000)
  const memberships: MembershipCache = new TtlCache(ttlMs, 50_000)
  const flushed = new Set<() => void>()
  const flushLocal = () => {
    sessions.clear()
    memberships.clear()
    for (const listener of flushed) listener()
  }
  let stopListening: (() => Promise<void>) | undefined
  return {
    sessions,
    memberships,
    /** Another cache of who may do what (the apps host's, decision 046) is cleared with these. */
    onFlush: (listener: () => void) => {
      flushed.add(listener)
    },
    start: async () => {
      // A flush notified while the listener was reconnecting is lost: flush on reconnect.
      stopListening = await database.listen(
        channel,
        (payload) => {
          if (payload !== instanceId) flushLocal()
        },
        { onReconnect: flushLocal },
      )
    },
    flush: async () => {
      flushLocal()
      await database.notify(channel, instanceId)
    },
    stop: async () => {
      await stopListening?.()
    },
  }
}

const sessionCookie = /(?:^|;\s*)(?:__Secure-)?sprout\.session_token=([^;]+)/

/** The credential better-auth would read: the bearer token first, else the session cookie. */
export function credentialKey(headers: Headers): string | undefined {
  const authorization = headers.get('authorization')
  if (authorization?.toLowerCase().startsWith('bearer ')) return `bearer:${authorization.slice(7)}`
  const cookie = headers.get('cookie')
  const match = cookie ? sessionCookie.exec(cookie) : null
  return match ? `cookie:${match[1]}` : undefined
}
