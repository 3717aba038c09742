/**
 * The app's back end: a Hono app under /api. In development Vite serves it next to the client on
 * the same origin (see vite.config.ts); in production server/main.ts runs it.
 *
 * The client calls it with `fetch('/api/...')`. Secrets (API keys, tokens) belong here, read from
 * process.env, never in src/: everything in src/ is sent to the browser.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { db } from './db.ts'
import { reportError } from './monitoring.ts'

export const app = new Hono().basePath('/api')

app.get('/health', (c) => c.json({ ok: true }))

type Note = { id: number; text: string; created_at: string }

app.get('/notes', (c) => {
  const notes = db
    .prepare('SELECT id, text, created_at FROM notes ORDER BY id DESC LIMIT 50')
    .all() as Note[]
  return c.json({ notes })
})

// Check what the browser sends before using it.
const newNote = z.object({ text: z.string().trim().min(1).max(500) })

app.post('/notes', async (c) => {
  const input = newNote.safeParse(await c.req.json().catch(() => undefined))
  if (!input.success) return c.json({ error: z.prettifyError(input.error) }, 400)
  const note = db
    .prepare('INSERT INTO notes (text) VALUES (?) RETURNING id, text, created_at')
    .get(input.data.text) as Note
  return c.json({ note }, 201)
})

app.notFound((c) => c.json({ error: `No route for ${c.req.method} ${c.req.path}` }, 404))

// The error is printed to the server's output (the dev server's logs in Sprout) and reported to
// Sprout's error monitoring (server/monitoring.ts).
app.onError((error, c) => {
  console.error(error)
  reportError(error)
  return c.json({ error: 'Internal server error' }, 500)
})

export default app
