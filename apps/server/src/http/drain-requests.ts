import type http from 'node:http'

/**
 * The requests in progress on `server`, so that a stop finishes them instead of cutting them
 * (docs/operations/several-instances.md "A rolling upgrade"): a message being stored, a preview
 * module being proxied, a relay under way.
 */
export function trackRequests(server: http.Server) {
  const inFlight = new Map<http.ServerResponse, http.IncomingMessage>()
  let emptied: (() => void) | undefined
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    inFlight.set(response, request)
    response.once('close', () => {
      inFlight.delete(response)
      if (inFlight.size === 0) emptied?.()
    })
  })

  return {
    /**
     * Stops accepting connections and closes the idle ones; ends every event stream at once (its
     * client reconnects after its last seq, through another instance); lets the other requests
     * finish for up to `graceMs`, then closes every connection.
     */
    drain: async (graceMs: number) => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      for (const [response, request] of inFlight) {
        if ((request.headers.accept ?? '').includes('text/event-stream')) response.destroy()
      }
      let timer: NodeJS.Timeout | undefined
      await Promise.race([
        new Promise<void>((resolve) => {
          emptied = resolve
          if (inFlight.size === 0) resolve()
        }),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs)
        }),
      ])
      clearTimeout(timer)
      server.closeAllConnections()
      await closed
    },
  }
}
