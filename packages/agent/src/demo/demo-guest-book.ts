/**
 * What the Demo model writes for "a guest book": a table, two server routes and a page that calls
 * them, on the full-stack starter (docs/architecture/devbox.md "App back ends"). Fixed sources, so
 * the whole flow — preview, deploy, production data — runs without a model key.
 */
import { demoServerSource } from './demo-server-source.ts'
import { type DemoScript, writeFileStep } from './demo-steps.ts'

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

export const guestBookServer = demoServerSource({
  imports: `import { z } from 'zod'
import { db } from './db.ts'`,
  declarations: `const entryInput = z.object({
  name: z.string().trim().min(1, 'Name is required').max(80),
  message: z.string().trim().min(1, 'Message is required').max(500),
})

type Entry = { id: number; name: string; message: string; created_at: string }`,
  routes: `app.get('/entries', (context) => {
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
})`,
})

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

/** The script: the table, the server routes, the page, then a look at the server's log. */
export const guestBookScript: DemoScript = {
  steps: [
    {
      reasoning:
        'A guest book needs data that outlives the page: a table in the app database, a server ' +
        'route to list entries and one to add an entry, and a page that calls them at /api.',
      text: "I'll build a **Guest Book** with its own server routes and database. The plan:",
      toolCalls: [{ toolName: 'todos', input: guestBookTasks(0) }],
    },
    writeFileStep(
      'First the table, as a new migration.',
      guestBookMigrationPath,
      guestBookMigration,
    ),
    writeFileStep('Now the server routes.', guestBookServerPath, guestBookServer),
    { toolCalls: [{ toolName: 'todos', input: guestBookTasks(2) }] },
    writeFileStep('And the page that calls them.', guestBookClientPath, guestBookClient),
    { toolCalls: [{ toolName: 'todos', input: guestBookTasks(3) }] },
    {
      text: "Let me check the server's log for errors.",
      toolCalls: [{ toolName: 'server_logs', input: { lines: 20 } }],
    },
    { toolCalls: [{ toolName: 'todos', input: guestBookTasks(4) }] },
  ],
  done:
    'Done! The **Guest Book** keeps its entries in the app database: `server/app.ts` ' +
    'answers `GET` and `POST /api/entries`, and `src/App.tsx` lists the entries and signs ' +
    'the book. Try it in the preview; a deploy gets its own, empty database.',
}

function guestBookTasks(done: number) {
  return {
    title: 'Guest Book',
    tasks: [
      'Add a table for the entries (a migration)',
      'Write the server routes GET and POST /api/entries',
      'Write the page that lists entries and signs the book',
      'Check the server log for errors',
    ].map((title, index) => ({
      id: String(index + 1),
      status: index < done ? 'complete' : 'incomplete',
      title,
    })),
  }
}
