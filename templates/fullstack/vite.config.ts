import devServer from '@hono/vite-dev-server'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const port = Number(process.env.PORT) || 5173

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    // One dev server for both: /api and /api/* go to server/app.ts (loaded again after a change
    // under server/), everything else is the client.
    devServer({
      entry: './server/app.ts',
      export: 'app',
      exclude: [/^(?!\/api(?:[/?#]|$))/],
      injectClientScript: false,
    }),
  ],
  server: {
    host: '127.0.0.1',
    port,
    strictPort: true,
    // The preview is served through a proxy on another host name (e.g. my-app.preview.localhost).
    allowedHosts: true,
    // Without a client port the HMR socket connects to the page's own host and port, i.e. the proxy.
    hmr: { clientPort: Number(process.env.HMR_CLIENT_PORT) || undefined },
    watch: { ignored: ['**/.data/**'] },
  },
  preview: { host: '127.0.0.1', port, strictPort: true },
  // `vite build` makes dist/client; `vite build --ssr server/main.ts` makes dist/server/index.js
  // with every dependency bundled in, so it runs without node_modules.
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        copyPublicDir: false,
        rollupOptions: { output: { entryFileNames: 'index.js' } },
      }
    : { outDir: 'dist/client' },
  ssr: isSsrBuild ? { noExternal: true, target: 'node' } : {},
}))
