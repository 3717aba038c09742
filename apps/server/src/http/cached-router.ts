import type { Result, Router } from 'hono/router'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'

/** Distinct method and path pairs remembered; the first remembered goes first when full. */
const maxEntries = 2000
/** Longer paths are matched each time: the memory held stays under 2000 × 256 characters. */
const maxPathLength = 256

/**
 * Hono's SmartRouter with each method and path's match remembered: the trie router it falls back to
 * cost ~3 % of a cached GET (docs/performance.md "API and proxies (second pass)"). Safe because
 * hono never writes to a match and refuses new routes once one was matched.
 */
export class CachedRouter<Handler> implements Router<Handler> {
  name = 'CachedRouter'
  readonly #router = new SmartRouter<Handler>({
    routers: [new RegExpRouter(), new TrieRouter()],
  })
  readonly #matches = new Map<string, Result<Handler>>()

  add(method: string, path: string, handler: Handler): void {
    this.#router.add(method, path, handler)
  }

  match(method: string, path: string): Result<Handler> {
    const key = `${method} ${path}`
    const known = this.#matches.get(key)
    if (known) return known
    const result = this.#router.match(method, path)
    if (path.length > maxPathLength) return result
    if (this.#matches.size >= maxEntries) {
      const oldest = this.#matches.keys().next().value
      if (oldest !== undefined) this.#matches.delete(oldest)
    }
    this.#matches.set(key, result)
    return result
  }
}
