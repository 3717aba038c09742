import { requestDevServer } from './dev-server-request.ts'
import type { DevServerTarget } from './devbox-driver.ts'

/** Modules loaded at most, so that a page importing the world cannot keep the pool busy. */
const maxModules = 60
const requestTimeoutMs = 30_000

/** `src="/…"` of the page's module scripts; `from '/…'`, `import '/…'`, `import('/…')` of a module. */
const pageScripts = /<script\b[^>]*\bsrc="(\/[^"]+)"/g
const moduleImports = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\/[^"']+)["']/g

/**
 * Requests the page and its modules from a fresh dev server as a browser would
 * (docs/architecture/devbox.md "Pool"), so the first preview does not wait seconds for Vite's first
 * bundling. Any failure only ends the warming.
 */
export async function warmDevServer(
  target: DevServerTarget | undefined,
  signal?: AbortSignal,
): Promise<number> {
  if (!target) return 0
  const get = (path: string, accept: string) =>
    requestDevServer(target, path, { timeoutMs: requestTimeoutMs, headers: { accept }, signal })
  const page = await get('/', 'text/html').catch(() => undefined)
  if (page?.status !== 200) return 0
  const seen = new Set<string>()
  let queue = [...page.body.matchAll(pageScripts)].flatMap((match) => match[1] ?? [])
  while (queue.length > 0 && seen.size < maxModules && !signal?.aborted) {
    const batch = queue.filter((path) => !seen.has(path)).slice(0, maxModules - seen.size)
    for (const path of batch) seen.add(path)
    const bodies = await Promise.all(
      batch.map((path) =>
        get(path, '*/*').then(
          (answer) => (answer.status === 200 ? answer.body : ''),
          () => '',
        ),
      ),
    )
    queue = bodies.flatMap((body) =>
      [...body.matchAll(moduleImports)].flatMap((match) => match[1] ?? []),
    )
  }
  return seen.size
}
