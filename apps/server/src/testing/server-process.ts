/** TEST HELPERS: a whole server (startServer) on its own data, stopped and started again. */
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { removeWithMounts } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { testDevboxCacheDir } from './app-harness.ts'
import { createPostgresDatabase, testDatabaseKind } from './database.ts'

export type Cleanups = (() => Promise<void>)[]

/**
 * The environment of a server with its own DATA_DIR (named after `prefix`) and, on PostgreSQL,
 * its own database, plus `extra`; what removes them goes onto `cleanups`.
 */
export async function serverEnvironment(
  cleanups: Cleanups,
  prefix: string,
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix))
  cleanups.push(() => removeWithMounts(dataDir))
  const environment: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DEVBOX_POOL_TARGET: '0',
    DEVBOX_CACHE_DIR: testDevboxCacheDir,
    // The check after runs costs seconds per run, its acceptance tests a browser: the tests of
    // checks turn them on.
    CHECKS: 'off',
    ACCEPTANCE_TESTS: 'off',
    ...extra,
  }
  if (testDatabaseKind === 'postgres') {
    const database = await createPostgresDatabase()
    cleanups.push(database.drop)
    environment.DATABASE_URL = database.url
  }
  return environment
}

/** A request to the server as the web app sends it: from its origin, JSON bodies. */
export function requestServer(base: string, pathname: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  headers.set('origin', 'http://localhost:3000')
  if (init.body) headers.set('content-type', 'application/json')
  return fetch(`${base}${pathname}`, { ...init, headers })
}

/** Signs a new user up over HTTP; answers their bearer token. */
export async function signUpOverHttp(base: string, user: { email: string; name: string }) {
  const response = await requestServer(base, '/api/auth/sign-up/email', {
    method: 'POST',
    body: JSON.stringify({ ...user, password: 'correct-horse-battery' }),
  })
  if (response.status !== 200) throw new Error(`sign-up failed: ${await response.text()}`)
  return response.headers.get('set-auth-token') ?? ''
}
