/**
 * The server/app.ts the Demo model's scripted apps write on the full-stack starter
 * (docs/architecture/devbox.md "App back ends"): Hono at /api with a health check, their own
 * routes, and answers for unknown routes and thrown errors.
 */
export function demoServerSource({
  imports,
  declarations = '',
  routes,
}: {
  /** The import lines after Hono's. */
  imports: string
  /** Types and values the app's routes use, before the app. */
  declarations?: string
  /** The app's own routes and their helpers. */
  routes: string
}): string {
  return `import { Hono } from 'hono'
${imports}

${declarations && `${declarations}\n\n`}export const app = new Hono().basePath('/api')

app.get('/health', (context) => context.json({ ok: true }))

${routes}

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
}
