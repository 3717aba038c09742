import { readdirSync, readFileSync, statSync, watch } from 'node:fs'
import path from 'node:path'
import devServer from '@hono/vite-dev-server'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type ViteDevServer } from 'vite'
import { sourceLocations } from './vite-plugins/source-locations.ts'

const port = Number(process.env.PORT) || 5173
// Sprout's local boxes reach the dev server on loopback; a box that is a pod is reached on its
// pod address, so Sprout sets HOST there.
const host = process.env.HOST || '127.0.0.1'
const apiEntry = './server/app.ts'

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    // The dev server only, for Sprout's Select mode: builds and deploys never carry it.
    sourceLocations(),
    react(),
    tailwindcss(),
    // One dev server for both: /api and /api/* go to server/app.ts, everything else is the client.
    devServer({
      entry: apiEntry,
      exclude: [/^(?!\/api(?:[/?#]|$))/],
      injectClientScript: false,
      // The plugin's default reloads the page on every server change, which loses what the user
      // typed; the next /api request uses the new code anyway (docs/decisions/014-app-back-ends.md).
      handleHotUpdate: () => undefined,
      loadModule: loadApi,
    }),
    {
      // Loads the API as soon as the dev server listens, so the first /api request is quick.
      name: 'load-api-at-start',
      configureServer: (server) => {
        server.httpServer?.once('listening', () => loadApi(server).catch(() => {}))
        watchSproutEnvironment(server)
      },
    },
  ],
  server: {
    host,
    port,
    strictPort: true,
    // The preview is served through a proxy on another host name (e.g. my-app.preview.localhost).
    allowedHosts: true,
    // Without a client port the HMR socket connects to the page's own host and port, i.e. the proxy.
    hmr: { clientPort: Number(process.env.HMR_CLIENT_PORT) || undefined },
    // Transformed as the server starts, so the preview's first page load (a box from Sprout's
    // pool is claimed long after its start) does not wait for Vite's cold transforms.
    warmup: { clientFiles: ['./index.html', './src/main.tsx'] },
    watch: {
      ignored: ['**/.data/**'],
      // Without it the watcher drops a change within 50 ms of the previous one to the same file,
      // and a page that loaded the first version keeps it. Costs ~10 ms per update.
      awaitWriteFinish: { stabilityThreshold: 10, pollInterval: 5 },
    },
  },
  preview: { host, port, strictPort: true },
  // `vite build` makes dist/client; `vite build --ssr server/main.ts` makes dist/server/index.js
  // with every dependency bundled in, so it runs without node_modules.
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        copyPublicDir: false,
        rollupOptions: { output: { entryFileNames: 'index.js' } },
      }
    : // Hidden source maps: Sprout keeps them beside the deploy to show errors' source lines,
      // and never serves them.
      { outDir: 'dist/client', sourcemap: 'hidden' },
  ssr: isSsrBuild ? { noExternal: true, target: 'node' } : {},
}))

async function loadApi(server: ViteDevServer) {
  applySproutEnvironment(server)
  reloadChangedServerFiles(server)
  return (await server.ssrLoadModule(apiEntry)).app
}

let sproutEnvironmentVersion = ''

/** Takes SPROUT_ENV_FILE's new values (and loads the API again) as soon as Sprout writes it. */
function watchSproutEnvironment(server: ViteDevServer) {
  const file = process.env.SPROUT_ENV_FILE
  if (!file) return
  try {
    const watcher = watch(path.dirname(file), (_event, name) => {
      if (name === path.basename(file)) loadApi(server).catch(() => {})
    })
    watcher.unref()
    server.httpServer?.once('close', () => watcher.close())
  } catch {
    // Without a watcher the next /api request takes them.
  }
}

/**
 * Inside Sprout, SPROUT_ENV_FILE names a file with this app's SPROUT_APP_TOKEN, SENTRY_DSN,
 * SPROUT_INTERNAL_URL and SPROUT_APP_ORIGINS, which Sprout may write after the dev server
 * started: they reach process.env before the next /api request, and server/ is loaded again so
 * that code reading them at start (monitoring.ts, the auth kit) sees them. Outside Sprout
 * nothing happens.
 */
function applySproutEnvironment(server: ViteDevServer) {
  const file = process.env.SPROUT_ENV_FILE
  if (!file) return
  const stats = statSync(file, { throwIfNoEntry: false })
  const version = stats ? `${stats.ino}:${stats.mtimeMs}:${stats.size}` : ''
  if (version === sproutEnvironmentVersion) return
  sproutEnvironmentVersion = version
  let values: Record<string, string | null>
  try {
    values = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return
  }
  let changed = false
  for (const [name, value] of Object.entries(values)) {
    if ((process.env[name] ?? null) === value) continue
    changed = true
    if (value === null) delete process.env[name]
    else process.env[name] = value
  }
  if (!changed) return
  const graph = server.environments.ssr.moduleGraph
  const directory = path.resolve('server')
  for (const module of graph.idToModuleMap.values()) {
    if (module.file?.startsWith(directory + path.sep)) graph.invalidateModule(module)
  }
}

let serverFileVersions: Map<string, string> | undefined

/**
 * Makes every /api request use the latest files under server/, whether or not the file watcher
 * has reported the change yet (it reports after the write settles, and may coalesce events).
 */
function reloadChangedServerFiles(server: ViteDevServer) {
  const graph = server.environments.ssr.moduleGraph
  const directory = path.resolve('server')
  const versions = new Map<string, string>()
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    const stats = statSync(file, { throwIfNoEntry: false })
    if (stats) versions.set(file, `${stats.ino}:${stats.mtimeMs}:${stats.size}`)
  }
  const previous = serverFileVersions
  serverFileVersions = versions
  if (!previous) return
  const changed = [...versions].filter(([file, version]) => previous.get(file) !== version)
  const added = changed.some(([file]) => !previous.has(file))
  const removed = [...previous.keys()].some((file) => !versions.has(file))
  if (added || removed) {
    // A new migration or module: load everything under server/ again, whatever imports it.
    for (const module of graph.idToModuleMap.values()) {
      if (module.file?.startsWith(directory + path.sep)) graph.invalidateModule(module)
    }
  } else {
    for (const [file] of changed) graph.onFileChange(file)
  }
}
