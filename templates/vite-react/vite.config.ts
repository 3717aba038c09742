import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { sourceLocations } from './vite-plugins/source-locations.ts'

const port = Number(process.env.PORT) || 5173
// Sprout's local boxes reach the dev server on loopback; a box that is a pod is reached on its
// pod address, so Sprout sets HOST there.
const host = process.env.HOST || '127.0.0.1'

export default defineConfig({
  // sourceLocations: the dev server only, for Sprout's Select mode; builds never carry it.
  plugins: [sourceLocations(), react(), tailwindcss()],
  server: {
    host,
    port,
    strictPort: true,
    // The preview is served through a proxy on another host name (e.g. my-app.preview.localhost).
    allowedHosts: true,
    // Without a client port the HMR socket connects to the page's own host and port, i.e. the proxy.
    hmr: { clientPort: Number(process.env.HMR_CLIENT_PORT) || undefined },
  },
  preview: { host, port, strictPort: true },
})
