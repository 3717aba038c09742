/**
 * What the Demo model writes for "a guest book": a table, two server routes and a page that calls
 * them, on the full-stack starter (docs/architecture/devbox.md "App back ends"). Fixed sources, so
 * the whole flow — preview, deploy, production data — runs without a model key.
 */

export const guestBookMigrationPath = 'server/migrations/002_create_guest_book_entries.sql'

export const guestBookMigration = `-- The guest book's entries, newest last.
create table guest_book_entries (
  id integer primary key autoincrement,
  name text not null,
  message text not null,
  created_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
`

export const guestBookServerPath = 'server/app.ts'

export const guestBookServer = `import { Hono } from 'hono'
import { z } from 'zod'
import { db } from './db.ts'

const entryInput = z.object({
  name: z.string().trim().min(1, 'Name is required').max(80),
  message: z.string().trim().min(1, 'Message is required').max(500),
})

type Entry = { id: number; name: string; message: string; created_at: string }

export const app = new Hono().basePath('/api')

app.get('/health', (context) => context.json({ ok: true }))

app.get('/entries', (context) => {
  const entries = db
    .prepare('select id, name, message, created_at from guest_book_entries order by id desc limit 100')
    .all() as Entry[]
  return context.json({ entries })
})

app.post('/entries', async (context) => {
  const parsed = entryInput.safeParse(await context.req.json().catch(() => undefined))
  if (!parsed.success) {
    return context.json({ error: parsed.error.issues[0]?.message ?? 'Invalid entry' }, 400)
  }
  const result = db
    .prepare('insert into guest_book_entries (name, message) values (?, ?)')
    .run(parsed.data.name, parsed.data.message)
  return context.json({ id: Number(result.lastInsertRowid) }, 201)
})

app.notFound((context) =>
  context.json({ error: \`No route for \${context.req.method} \${context.req.path}\` }, 404),
)

// The error goes to the server's output, where server_logs shows it.
app.onError((error, context) => {
  console.error(error)
  return context.json({ error: 'Internal server error' }, 500)
})

export default app
`

export const guestBookClientPath = 'src/App.tsx'

export const guestBookClient = `import { type FormEvent, useEffect, useState } from 'react'

type Entry = { id: number; name: string; message: string; created_at: string }

export function App() {
  const [entries, setEntries] = useState<Entry[] | undefined>()
  const [name, setName] = useState('')
  const [message, setMessage] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [saving, setSaving] = useState(false)

  async function load() {
    const response = await fetch('/api/entries')
    if (!response.ok) throw new Error(\`Could not load the guest book (\${response.status})\`)
    const body = (await response.json()) as { entries: Entry[] }
    setEntries(body.entries)
  }

  useEffect(() => {
    load().catch((reason: unknown) => setError(String(reason)))
  }, [])

  async function sign(event: FormEvent) {
    event.preventDefault()
    setSaving(true)
    setError(undefined)
    try {
      const response = await fetch('/api/entries', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, message }),
      })
      const body = (await response.json()) as { error?: string }
      if (!response.ok) throw new Error(body.error ?? 'Could not sign the guest book')
      setMessage('')
      await load()
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : String(reason))
    } finally {
      setSaving(false)
    }
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col gap-8 px-6 py-16">
      <header className="flex flex-col gap-2">
        <h1 className="text-4xl font-semibold tracking-tight">Guest Book</h1>
        <p className="text-stone-600 dark:text-stone-400">Leave a message for the next visitor.</p>
      </header>

      <form onSubmit={sign} className="flex flex-col gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Name
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            className="rounded-lg border border-stone-300 bg-white px-3 py-2 font-normal dark:border-stone-700 dark:bg-stone-900"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Message
          <textarea
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            rows={3}
            className="rounded-lg border border-stone-300 bg-white px-3 py-2 font-normal dark:border-stone-700 dark:bg-stone-900"
          />
        </label>
        <button
          type="submit"
          disabled={saving}
          className="w-fit rounded-lg bg-emerald-600 px-4 py-2 font-medium text-white shadow-sm transition hover:bg-emerald-500 disabled:opacity-60"
        >
          {saving ? 'Signing...' : 'Sign the guest book'}
        </button>
        {error && <p role="alert" className="text-sm text-red-600">{error}</p>}
      </form>

      <section aria-label="Entries" className="flex flex-col gap-3">
        {entries === undefined ? (
          <p className="text-stone-500">Loading...</p>
        ) : entries.length === 0 ? (
          <p className="text-stone-500">No entries yet. Be the first to sign!</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {entries.map((entry) => (
              <li
                key={entry.id}
                className="rounded-lg border border-stone-200 bg-white px-4 py-3 dark:border-stone-800 dark:bg-stone-900"
              >
                <p className="font-medium">{entry.name}</p>
                <p className="text-stone-700 dark:text-stone-300">{entry.message}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  )
}
`
