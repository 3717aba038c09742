/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// `npm run dev -w @sprout/web` serves the SPA with hot reload and forwards /api to a running server.
const apiTarget = process.env.SPROUT_API_URL ?? 'http://localhost:3000'

export default defineConfig({
  // The router plugin generates src/routeTree.gen.ts and must run before react().
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, addExtensions: true }),
    react(),
    tailwindcss(),
  ],
  server: {
    port: 5173,
    proxy: {
      '/api': {
        target: apiTarget,
        // The server only accepts cookie-authenticated writes from its own origin (CSRF check).
        configure: (proxy) => {
          proxy.on('proxyReq', (proxyRequest) => {
            if (proxyRequest.getHeader('origin')) proxyRequest.setHeader('origin', apiTarget)
          })
        },
      },
    },
  },
})
