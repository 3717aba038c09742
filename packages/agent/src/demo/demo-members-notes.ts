/**
 * What the Demo model writes for "a members-only notes app": a public app with accounts of its
 * own, on the full-stack starter's auth kit (templates/fullstack/README.md "Sign-in for a public
 * app"): sign-up with an e-mailed confirmation link, notes for signed-in members, and deleting a
 * note for the app's admins only, checked by the server. Fixed sources, as the guest book's.
 */
import { demoServerSource } from './demo-server-source.ts'
import { type DemoScript, writeFileStep } from './demo-steps.ts'

export const membersNotesMigrationPath = 'server/migrations/002_create_member_notes.sql'

export const membersNotesMigration = `-- The members' notes, each by the account that wrote it (the auth kit's auth_user).
create table member_notes (
  id integer primary key autoincrement,
  user_id text not null references auth_user(id) on delete cascade,
  text text not null,
  created_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
`

export const membersNotesServerPath = 'server/app.ts'

export const membersNotesServer = demoServerSource({
  imports: `import { z } from 'zod'
import { appUser } from './auth-kit/app-user.ts'
import { requireAppRole } from './auth-kit/require-app-role.ts'
import { mountAuthKit } from './auth-kit/routes.ts'
import { db } from './db.ts'`,
  declarations: `const noteInput = z.object({
  text: z.string().trim().min(1, 'Write something first').max(1000),
})

type Note = { id: number; text: string; author: string; created_at: string }`,
  routes: `// Sign-up, sign-in, confirmation and reset links: /api/auth/*, /api/auth-kit/*.
mountAuthKit(app)

app.get('/member-notes', requireAppRole('member'), (context) => {
  const notes = db
    .prepare(
      \`select member_notes.id, member_notes.text, auth_user.name as author, member_notes.created_at
       from member_notes join auth_user on auth_user.id = member_notes.user_id
       order by member_notes.id desc limit 200\`,
    )
    .all() as Note[]
  return context.json({ notes })
})

app.post('/member-notes', requireAppRole('member'), async (context) => {
  const user = await appUser(context)
  const parsed = noteInput.safeParse(await context.req.json().catch(() => undefined))
  if (!user) return context.json({ error: 'Sign in first.' }, 401)
  if (!parsed.success) {
    return context.json({ error: parsed.error.issues[0]?.message ?? 'Invalid note' }, 400)
  }
  const result = db
    .prepare('insert into member_notes (user_id, text) values (?, ?)')
    .run(user.id, parsed.data.text)
  return context.json({ id: Number(result.lastInsertRowid) }, 201)
})

// Only the app's admins (and its owner) delete notes: the server decides, whatever the page shows.
app.delete('/member-notes/:id', requireAppRole('admin'), (context) => {
  db.prepare('delete from member_notes where id = ?').run(Number(context.req.param('id')))
  return context.json({ deleted: true })
})`,
})

export const membersNotesClientPath = 'src/App.tsx'

export const membersNotesClient = `import { type FormEvent, type ReactNode, useCallback, useEffect, useState } from 'react'
import { ForgotPasswordForm } from './auth-kit/forgot-password-form.tsx'
import { ResetPasswordForm } from './auth-kit/reset-password-form.tsx'
import { SignInForm } from './auth-kit/sign-in-form.tsx'
import { signOut } from './auth-kit/sign-out.ts'
import { SignUpForm } from './auth-kit/sign-up-form.tsx'
import { type AppUser, useAppUser } from './auth-kit/use-app-user.ts'

type Note = { id: number; text: string; author: string; created_at: string }

function Shell({ children }: { children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col gap-8 px-6 py-16">
      <header className="flex flex-col gap-2">
        <h1 className="text-4xl font-semibold tracking-tight">Members' Notes</h1>
        <p className="text-stone-600 dark:text-stone-400">Notes for the members of this club.</p>
      </header>
      {children}
    </main>
  )
}

export function App() {
  const { user, loading } = useAppUser()
  if (window.location.pathname === '/reset-password') {
    return (
      <Shell>
        <ResetPasswordForm onPasswordSet={() => window.location.assign('/')} />
      </Shell>
    )
  }
  if (loading) {
    return (
      <Shell>
        <p className="text-stone-500">Loading...</p>
      </Shell>
    )
  }
  if (!user) {
    return (
      <Shell>
        <section aria-label="Sign up" className="flex flex-col gap-3">
          <h2 className="text-xl font-semibold">New here? Make an account</h2>
          <SignUpForm />
        </section>
        <section aria-label="Sign in" className="flex flex-col gap-3">
          <h2 className="text-xl font-semibold">Members sign in</h2>
          <SignInForm />
        </section>
        <details aria-label="Forgot your password?">
          <summary className="cursor-pointer text-sm text-stone-600">Forgot your password?</summary>
          <ForgotPasswordForm />
        </details>
      </Shell>
    )
  }
  return (
    <Shell>
      <Notes user={user} />
    </Shell>
  )
}

function Notes({ user }: { user: AppUser }) {
  const [notes, setNotes] = useState<Note[] | undefined>()
  const [text, setText] = useState('')
  const [error, setError] = useState<string | undefined>()
  const canDelete = user.role === 'admin' || user.role === 'owner'

  const load = useCallback(async () => {
    const response = await fetch('/api/member-notes')
    const body = (await response.json()) as { notes?: Note[]; error?: string }
    if (!response.ok) throw new Error(body.error ?? 'Could not load the notes')
    setNotes(body.notes ?? [])
  }, [])

  useEffect(() => {
    load().catch((reason: unknown) => setError(String(reason)))
  }, [load])

  async function add(event: FormEvent) {
    event.preventDefault()
    setError(undefined)
    const response = await fetch('/api/member-notes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    })
    const body = (await response.json()) as { error?: string }
    if (!response.ok) return setError(body.error ?? 'Could not add the note')
    setText('')
    await load()
  }

  async function remove(id: number) {
    setError(undefined)
    const response = await fetch(\`/api/member-notes/\${id}\`, { method: 'DELETE' })
    const body = (await response.json()) as { error?: string }
    if (!response.ok) return setError(body.error ?? 'Could not delete the note')
    await load()
  }

  return (
    <>
      <div className="flex items-center justify-between gap-4">
        <p>
          Signed in as <strong>{user.name}</strong> ({user.role})
        </p>
        <button type="button" onClick={() => signOut()} className="rounded-lg border px-3 py-1">
          Sign out
        </button>
      </div>
      <form onSubmit={add} className="flex flex-col gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Note
          <textarea
            value={text}
            onChange={(event) => setText(event.target.value)}
            rows={3}
            className="rounded-lg border border-stone-300 bg-white px-3 py-2 font-normal dark:border-stone-700 dark:bg-stone-900"
          />
        </label>
        <button
          type="submit"
          className="w-fit rounded-lg bg-emerald-600 px-4 py-2 font-medium text-white shadow-sm hover:bg-emerald-500"
        >
          Add note
        </button>
        {error && <p role="alert" className="text-sm text-red-600">{error}</p>}
      </form>
      <section aria-label="Notes" className="flex flex-col gap-3">
        {notes === undefined ? (
          <p className="text-stone-500">Loading...</p>
        ) : notes.length === 0 ? (
          <p className="text-stone-500">No notes yet.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {notes.map((note) => (
              <li key={note.id} className="flex items-start justify-between gap-4 rounded-lg border px-4 py-3">
                <div>
                  <p className="font-medium">{note.author}</p>
                  <p className="text-stone-700 dark:text-stone-300">{note.text}</p>
                </div>
                {canDelete && (
                  <button type="button" onClick={() => remove(note.id)} aria-label={\`Delete the note by \${note.author}\`}>
                    Delete
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  )
}
`

/** The script: the table, the server routes with the auth kit, the page, then the server's log. */
export const membersNotesScript: DemoScript = {
  steps: [
    writeFileStep(
      "I'll build **Members' Notes** on the starter's auth kit, which gives accounts with a " +
        'confirmation e-mail, sign-in and roles. First the notes table, as a new migration.',
      membersNotesMigrationPath,
      membersNotesMigration,
    ),
    writeFileStep(
      'Now the server: the auth kit’s routes, and notes for members with deleting for admins.',
      membersNotesServerPath,
      membersNotesServer,
    ),
    writeFileStep(
      'And the page: sign-up, sign-in, then the notes.',
      membersNotesClientPath,
      membersNotesClient,
    ),
    {
      text: "Let me check the server's log for errors.",
      toolCalls: [{ toolName: 'server_logs', input: { lines: 20 } }],
    },
  ],
  done:
    "Done! **Members' Notes** has accounts of its own: a new member signs up, confirms the " +
    'address by the e-mailed link, and signs in. Every member reads and adds notes; only the ' +
    "app’s admins delete them, and the server checks that (`requireAppRole('admin')`). The " +
    'first account is the owner.',
}
