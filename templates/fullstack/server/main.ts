/** The production server: `npm run build`, then `node dist/server/index.js` with PORT set. */
import { serve } from '@hono/node-server'
import { app } from './app.ts'

const port = Number(process.env.PORT) || 3000

serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`Listening on http://127.0.0.1:${info.port}`)
})
