import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import type { AppEnv } from './app-env.ts'

/** Serves the built SPA: hashed assets cached for a year, every other GET falls back to index.html. */
export function webAssets(distDir: string) {
  const app = new Hono<AppEnv>()
  const indexPath = path.join(distDir, 'index.html')
  if (!existsSync(indexPath)) {
    app.get('*', (context) =>
      context.text(
        'The web app is not built. Run `npm run build` (npm start does it for you).',
        503,
      ),
    )
    return app
  }
  const root = path.relative(process.cwd(), distDir) || '.'
  app.use(
    '/assets/*',
    serveStatic({
      root,
      onFound: (_path, context) => {
        context.header('Cache-Control', 'public, max-age=31536000, immutable')
      },
    }),
  )
  app.use('*', serveStatic({ root }))
  // Read on every navigation (it is small) so a rebuild is picked up without a restart.
  app.get('*', async (context) => {
    context.header('Cache-Control', 'no-cache')
    return context.html(await readFile(indexPath, 'utf8'))
  })
  return app
}
