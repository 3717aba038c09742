import { existsSync } from 'node:fs'

/**
 * The Chromium a box runs, for the app's acceptance tests and the agent's browser tool
 * (docs/product/checks.md "Acceptance tests", docs/product/tool-calls.md "browser"): Debian's, the
 * same path on the server (whose /usr a local box sees read-only) and in the box image. The binary
 * itself, not /usr/bin/chromium: that wrapper reads /etc/chromium.d, which a box does not have.
 */
export const BOX_CHROMIUM_PATH = '/usr/lib/chromium/chromium'

/**
 * Chromium's own sandbox is off because the box is the sandbox (its user, namespaces, seccomp
 * filter and limits); no zygote (it forks with namespaces a box refuses); /dev/shm is small there.
 */
export const BOX_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--no-zygote',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const

/** The environment a command in the box gets to find them (the starters' playwright.config.ts). */
export function boxChromiumEnvironment(): Record<string, string> {
  return { CHROMIUM_PATH: BOX_CHROMIUM_PATH, CHROMIUM_ARGS: BOX_CHROMIUM_ARGS.join(' ') }
}

/** False on a server without Debian's chromium: acceptance tests are then skipped with a note. */
export function boxChromiumInstalled(): boolean {
  return existsSync(BOX_CHROMIUM_PATH)
}
