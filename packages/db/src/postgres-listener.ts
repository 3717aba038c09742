import pg from 'pg'

type Handler = (payload: string) => void

/**
 * One dedicated connection for LISTEN (a pooled one would lose its subscriptions). It reconnects
 * after a failure and subscribes again, so a database restart does not silence wake-ups.
 */
export function createPostgresListener(url: string) {
  const handlers = new Map<string, Set<Handler>>()
  let client: pg.Client | undefined
  let connecting: Promise<pg.Client> | undefined
  let closed = false

  const quote = (channel: string) => `"${channel.replaceAll('"', '""')}"`

  const connect = async (): Promise<pg.Client> => {
    if (client) return client
    connecting ??= (async () => {
      const fresh = new pg.Client({ connectionString: url })
      fresh.on('notification', (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '')
      })
      fresh.on('error', (error) => {
        console.error('[db] listener connection failed, reconnecting:', error.message)
        client = undefined
        fresh.end().catch(() => undefined)
        if (!closed) setTimeout(() => void reconnect(), 500)
      })
      await fresh.connect()
      for (const channel of handlers.keys()) await fresh.query(`listen ${quote(channel)}`)
      client = fresh
      return fresh
    })().finally(() => {
      connecting = undefined
    })
    return connecting
  }

  const reconnect = async () => {
    try {
      await connect()
    } catch (error) {
      console.error('[db] listener reconnect failed:', (error as Error).message)
      if (!closed) setTimeout(() => void reconnect(), 1000)
    }
  }

  return {
    listen: async (channel: string, handler: Handler) => {
      let channelHandlers = handlers.get(channel)
      if (!channelHandlers) {
        channelHandlers = new Set()
        handlers.set(channel, channelHandlers)
        const connection = await connect()
        await connection.query(`listen ${quote(channel)}`)
      }
      channelHandlers.add(handler)
      return async () => {
        channelHandlers.delete(handler)
        if (channelHandlers.size === 0 && handlers.get(channel) === channelHandlers) {
          handlers.delete(channel)
          await client?.query(`unlisten ${quote(channel)}`).catch(() => undefined)
        }
      }
    },
    close: async () => {
      closed = true
      await client?.end().catch(() => undefined)
      client = undefined
    },
  }
}
