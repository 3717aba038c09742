/**
 * The Demo model's "page listing my Linear issues" (decision 019): asks the integration guide, then
 * writes a route using `getAccessToken('linear')` and a page calling it. Fixed sources, so it runs
 * without a model key; without Linear connected the page shows why.
 */
import { demoServerSource } from './demo-server-source.ts'
import { type DemoScript, writeFileStep } from './demo-steps.ts'

export const linearGuideQuestion =
  'How do I list my open issues from a server route, with pagination?'

export const linearServerPath = 'server/app.ts'

export const linearServer = demoServerSource({
  imports: `import { getAccessToken } from './integrations.ts'`,
  declarations: `type Issue = { id: string; identifier: string; title: string; url: string; state: { name: string } }
type IssuesPage = {
  issues: { nodes: Issue[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }
}`,
  routes: `/** One GraphQL call to Linear with the organization's connection (never sent to the browser). */
async function linear<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const token = await getAccessToken('linear')
  const response = await fetch('https://api.linear.app/graphql', {
    method: 'POST',
    headers: { authorization: \`Bearer \${token}\`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  })
  const body = (await response.json()) as { data?: T; errors?: { message: string }[] }
  if (!response.ok || body.errors?.length) {
    throw new Error(\`Linear: \${body.errors?.[0]?.message ?? response.status}\`)
  }
  return body.data as T
}

const issuesQuery = \`query Issues($after: String) {
  viewer {
    assignedIssues(first: 50, after: $after, orderBy: updatedAt, filter: { state: { type: { nin: ["completed", "canceled"] } } }) {
      nodes { id identifier title url state { name } }
      pageInfo { hasNextPage endCursor }
    }
  }
}\`

app.get('/issues', async (context) => {
  try {
    const after = context.req.query('after') || null
    const data = await linear<{ viewer: { assignedIssues: IssuesPage['issues'] } }>(issuesQuery, { after })
    const { nodes, pageInfo } = data.viewer.assignedIssues
    return context.json({ issues: nodes, next: pageInfo.hasNextPage ? pageInfo.endCursor : null })
  } catch (error) {
    // Not connected yet, or the connection needs reconnecting: the page says so.
    return context.json({ error: error instanceof Error ? error.message : String(error) }, 503)
  }
})`,
})

export const linearClientPath = 'src/App.tsx'

export const linearClient = `import { useEffect, useState } from 'react'

type Issue = { id: string; identifier: string; title: string; url: string; state: { name: string } }
type Page = { issues: Issue[]; next: string | null }

export function App() {
  const [issues, setIssues] = useState<Issue[]>([])
  const [next, setNext] = useState<string | null>(null)
  const [error, setError] = useState<string | undefined>()
  const [loading, setLoading] = useState(true)

  async function load(after?: string) {
    setLoading(true)
    setError(undefined)
    try {
      const response = await fetch(after ? \`/api/issues?after=\${encodeURIComponent(after)}\` : '/api/issues')
      const body = (await response.json()) as Page & { error?: string }
      if (!response.ok) throw new Error(body.error ?? \`Loading issues failed (\${response.status})\`)
      setIssues((shown) => (after ? [...shown, ...body.issues] : body.issues))
      setNext(body.next)
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : String(reason))
    } finally {
      setLoading(false)
    }
  }

  useEffect(() => {
    void load()
  }, [])

  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col gap-6 px-6 py-16">
      <header className="flex flex-col gap-2">
        <h1 className="text-4xl font-semibold tracking-tight">My Linear issues</h1>
        <p className="text-stone-600 dark:text-stone-400">Open issues assigned to you, most recently updated first.</p>
      </header>
      {error && (
        <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {error}. An admin connects Linear in Sprout's Settings.
        </p>
      )}
      <ul aria-label="Issues" className="flex flex-col gap-2">
        {issues.map((issue) => (
          <li key={issue.id} className="rounded-lg border border-stone-200 bg-white px-4 py-3 dark:border-stone-800 dark:bg-stone-900">
            <a href={issue.url} target="_blank" rel="noreferrer" className="flex items-baseline gap-3">
              <span className="font-mono text-sm text-stone-500">{issue.identifier}</span>
              <span className="flex-1 font-medium">{issue.title}</span>
              <span className="text-xs text-stone-500">{issue.state.name}</span>
            </a>
          </li>
        ))}
      </ul>
      {!loading && !error && issues.length === 0 && <p className="text-stone-500">No open issues. Nice.</p>}
      {next && (
        <button type="button" disabled={loading} onClick={() => void load(next)} className="self-start rounded-lg bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
          {loading ? 'Loading…' : 'Show more'}
        </button>
      )}
    </main>
  )
}
`

/** The script: the guide first, then the route that uses the helper, then the page. */
export const linearScript: DemoScript = {
  steps: [
    {
      reasoning:
        "Listing Linear issues needs the organization's Linear connection: a server route takes " +
        "a fresh token with getAccessToken('linear') and calls Linear's GraphQL API. I will ask " +
        'the integration guide how, then write the route and the page.',
      text: "I'll ask the **Linear** integration guide how the app's server calls Linear.",
      toolCalls: [
        {
          toolName: 'integration_guide',
          input: { integration: 'linear', question: linearGuideQuestion },
        },
      ],
    },
    writeFileStep(
      "Now the server route: it takes a token with `getAccessToken('linear')` and pages through your issues.",
      linearServerPath,
      linearServer,
    ),
    writeFileStep('And the page that lists them.', linearClientPath, linearClient),
  ],
  done:
    'Done! `GET /api/issues` in `server/app.ts` takes a fresh Linear token from ' +
    "`getAccessToken('linear')` (it never reaches the browser) and returns your open issues 50 " +
    'at a time; `src/App.tsx` lists them with a **Show more** button. If Linear is not connected ' +
    "yet, the page says so: an admin connects it in Sprout's Settings.",
}
