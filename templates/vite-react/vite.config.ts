import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const port = Number(process.env.PORT) || 5173

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    host: '127.0.0.1',
    port,
    strictPort: true,
    // The preview is served through a proxy on another host name (e.g. my-app.preview.localhost).
    allowedHosts: true,
    // Without a client port the HMR socket connects to the page's own host and port, i.e. the proxy.
    hmr: { clientPort: Number(process.env.HMR_CLIENT_PORT) || undefined },
  },
  preview: { host: '127.0.0.1', port, strictPort: true },
})
