import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFile, rename, stat } from 'node:fs/promises'
import path from 'node:path'
import { vaultSecrets } from '@sprout/db/schema/vault-secrets.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, parseConfig } from '../config/config.ts'
import { masterKeyId } from '../sealing/master-keys.ts'
import { startServer } from '../start-server.ts'
import { testDatabaseKind } from '../testing/database.ts'
import { serverEnvironment, signUpOverHttp } from '../testing/server-process.ts'

const newKey = () => randomBytes(32).toString('base64')
const idOf = (key: string) => masterKeyId(Buffer.from(key, 'base64'))

/** docs/product/vault.md "Master key": the key file, rotation across restarts, start-up errors. */
describe(`the vault's master key across restarts (${testDatabaseKind})`, {
  timeout: 180_000,
}, () => {
  const environment: Record<string, string> = {}
  const cleanups: (() => Promise<void>)[] = []
  let applicationId: string

  const start = (extra: Record<string, string> = {}) =>
    startServer(parseConfig({ ...environment, ...extra }), { serveWeb: false })

  beforeAll(async () => {
    Object.assign(environment, await serverEnvironment(cleanups, 'sprout-vault-restart-'))
    // A first start with no VAULT_KEY creates the key file and stores a secret under it.
    const first = await start()
    const base = `http://127.0.0.1:${first.port}`
    const call = (pathname: string, body: unknown, token = '') =>
      fetch(`${base}${pathname}`, {
        method: 'POST',
        headers: {
          origin: 'http://localhost:3000',
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(body),
      })
    const token = await signUpOverHttp(base, { email: 'vault@example.com', name: 'v' })
    const created = await call(
      '/api/applications',
      { initial_prompt: 'An app with a key', model: 'demo' },
      token,
    )
    applicationId = ((await created.json()) as { id: string }).id
    const set = await call(
      `/api/applications/${applicationId}/vault`,
      { key: 'API_TOKEN', value: 'kept-across-restarts' },
      token,
    )
    expect(set.status).toBe(200)
    await first.stop()
  })
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  it('keeps the key file private, and reads the secrets with it after a restart', async () => {
    const file = path.join(environment.DATA_DIR ?? '', 'vault-key')
    const { mode } = await stat(file)
    expect(mode & 0o777).toBe(0o600)
    const again = await start()
    expect(await again.created.vault.secretsOf(applicationId)).toEqual({
      API_TOKEN: 'kept-across-restarts',
    })
    await again.stop()
  })

  it('rotates to a new key at start, then runs on the new key alone', async () => {
    const fileKey = (
      await readFile(path.join(environment.DATA_DIR ?? '', 'vault-key'), 'utf8')
    ).trim()
    const rotated = newKey()
    const rotating = await start({ VAULT_KEY: rotated, VAULT_KEYS: fileKey })
    const rows = await rotating.database.db.select().from(vaultSecrets)
    expect(rows.map((row) => row.keyId)).toEqual([idOf(rotated)])
    await rotating.stop()
    const after = await start({ VAULT_KEY: rotated })
    expect(await after.created.vault.secretsOf(applicationId)).toEqual({
      API_TOKEN: 'kept-across-restarts',
    })
    await after.stop()
    environment.VAULT_KEY = rotated
  })

  it('refuses to start with a wrong or missing key, saying what to set', async () => {
    await expect(start({ VAULT_KEY: newKey() })).rejects.toThrow(ConfigError)
    await expect(start({ VAULT_KEY: newKey() })).rejects.toThrow(
      /encrypted with master key [0-9a-f]{16}, which is neither the current key .*Set VAULT_KEY/i,
    )
    // Without VAULT_KEY, and the key file (of the old key) moved away.
    const file = path.join(environment.DATA_DIR ?? '', 'vault-key')
    await rename(file, `${file}.moved`)
    await expect(start({ VAULT_KEY: '' })).rejects.toThrow(
      /VAULT_KEY is not set and the key file .* is missing/,
    )
    await rename(`${file}.moved`, file)
  })

  it('exits at start with the message and status 1, without listening', async () => {
    const main = path.resolve(import.meta.dirname, '../main.ts')
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, ...environment, VAULT_KEY: newKey() },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text
    })
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(1)
    expect(stderr).toMatch(/The vault holds 1 secret\(s\) encrypted with master key/)
  })
})
