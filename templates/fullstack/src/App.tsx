import { type FormEvent, useEffect, useState } from 'react'

type Note = { id: number; text: string; created_at: string }

const features = [
  {
    title: 'React 19 + Tailwind CSS 4',
    description: 'The page in src/: components, hooks and utility classes, typed end to end.',
  },
  {
    title: 'Hono API',
    description: 'Routes under /api in server/app.ts, on the same address as the page.',
  },
  {
    title: 'SQLite database',
    description: 'Tables from server/migrations/, kept safe across edits and restarts.',
  },
]

export function App() {
  const [notes, setNotes] = useState<Note[]>([])
  const [text, setText] = useState('')

  useEffect(() => {
    // An answer that is not the list (the server restarting, or its routes changed under the
    // page while the app is being built) leaves the list empty rather than breaking the page.
    fetch('/api/notes')
      .then((response) => (response.ok ? response.json() : { notes: [] }))
      .then((body: { notes?: Note[] }) => setNotes(Array.isArray(body.notes) ? body.notes : []))
      .catch(() => setNotes([]))
  }, [])

  const addNote = async (event: FormEvent) => {
    event.preventDefault()
    const response = await fetch('/api/notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    })
    if (!response.ok) return
    const { note } = (await response.json()) as { note: Note }
    setNotes((current) => [note, ...current])
    setText('')
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-4xl flex-col justify-center gap-12 px-6 py-16">
      <header className="flex flex-col gap-5">
        <span className="w-fit rounded-full bg-emerald-100 px-3 py-1 text-sm font-medium text-emerald-800 dark:bg-emerald-900/40 dark:text-emerald-300">
          Ready to grow
        </span>
        <h1 className="text-4xl font-semibold tracking-tight sm:text-5xl">Your app starts here.</h1>
        <p className="max-w-2xl text-lg text-stone-600 dark:text-stone-400">
          Describe what you want to build in the chat and watch this page change. It has a server
          and a database too: try leaving a note, it is still here after a reload.
        </p>
        <form onSubmit={addNote} className="flex max-w-xl gap-3">
          <input
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Leave a note"
            aria-label="Note"
            className="min-w-0 flex-1 rounded-lg border border-stone-300 bg-white px-3 py-2 dark:border-stone-700 dark:bg-stone-900"
          />
          <button
            type="submit"
            disabled={text.trim() === ''}
            className="rounded-lg bg-emerald-600 px-4 py-2 font-medium text-white shadow-sm transition hover:bg-emerald-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600 disabled:opacity-50"
          >
            Plant it
          </button>
        </form>
        {notes.length > 0 && (
          <ul className="flex max-w-xl flex-col gap-2 text-stone-700 dark:text-stone-300">
            {notes.map((note) => (
              <li
                key={note.id}
                className="rounded-lg bg-white px-3 py-2 shadow-sm dark:bg-stone-900"
              >
                {note.text}
              </li>
            ))}
          </ul>
        )}
      </header>

      <section className="grid gap-4 sm:grid-cols-3">
        {features.map((feature) => (
          <article
            key={feature.title}
            className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm dark:border-stone-800 dark:bg-stone-900"
          >
            <h2 className="font-semibold">{feature.title}</h2>
            <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{feature.description}</p>
          </article>
        ))}
      </section>

      <footer className="text-sm text-stone-500 dark:text-stone-500">
        Edit{' '}
        <code className="rounded bg-stone-200/60 px-1.5 py-0.5 dark:bg-stone-800">src/App.tsx</code>{' '}
        for the page and{' '}
        <code className="rounded bg-stone-200/60 px-1.5 py-0.5 dark:bg-stone-800">
          server/app.ts
        </code>{' '}
        for the API.
      </footer>
    </main>
  )
}
