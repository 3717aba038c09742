/**
 * An app's server/app.ts whose GET /api/vault-check proves which value of the vault key `key`
 * the server sees, by its SHA-256 (never the value).
 */
export const vaultCheckRoute = (key: string) => `import { createHash } from 'node:crypto'
import { Hono } from 'hono'

export const app = new Hono().basePath('/api')
app.get('/health', (c) => c.json({ ok: true }))
app.get('/vault-check', (c) => {
  const value = process.env.${key}
  return c.json({ hash: value ? createHash('sha256').update(value).digest('hex') : null })
})
export default app
`
