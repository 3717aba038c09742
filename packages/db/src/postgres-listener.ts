import pg from 'pg'

type Handler = (payload: string) => void

export type ListenOptions = {
  /**
   * Called once the connection is back after a failure and listens again: whatever was notified
   * meanwhile is lost, so the subscriber re-reads what it caches (docs/architecture/scale-out.md
   * "What already works across processes").
   */
  onReconnect?: () => void
}

/**
 * One dedicated connection for LISTEN (a pooled one would lose its subscriptions). It reconnects
 * after a failure and subscribes again, so a database restart does not silence wake-ups. Its
 * `application_name` is `{applicationName} listener`, so an operator (or a test) can find it in
 * `pg_stat_activity`.
 */
export function createPostgresListener(
  url: string,
  options: { applicationName?: string; retryMs?: number } = {},
) {
  const handlers = new Map<string, Set<Handler>>()
  const reconnectHandlers = new Set<() => void>()
  const retryMs = options.retryMs ?? 500
  let client: pg.Client | undefined
  let connecting: Promise<pg.Client> | undefined
  let hasConnected = false
  let closed = false

  const quote = (channel: string) => `"${channel.replaceAll('"', '""')}"`

  const connect = async (): Promise<pg.Client> => {
    if (client) return client
    connecting ??= (async () => {
      const fresh = new pg.Client({
        connectionString: url,
        application_name: `${options.applicationName ?? 'sprout'} listener`,
      })
      fresh.on('notification', (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '')
      })
      fresh.on('error', (error) => {
        console.error('[db] listener connection failed, reconnecting:', error.message)
        if (client === fresh) client = undefined
        fresh.end().catch(() => undefined)
        if (!closed) setTimeout(() => void reconnect(), retryMs)
      })
      await fresh.connect()
      for (const channel of handlers.keys()) await fresh.query(`listen ${quote(channel)}`)
      client = fresh
      const isReconnection = hasConnected
      hasConnected = true
      if (isReconnection) for (const onReconnect of reconnectHandlers) onReconnect()
      return fresh
    })().finally(() => {
      connecting = undefined
    })
    return connecting
  }

  const reconnect = async () => {
    if (closed || client) return
    try {
      await connect()
    } catch (error) {
      console.error('[db] listener reconnect failed:', (error as Error).message)
      if (!closed) setTimeout(() => void reconnect(), Math.max(retryMs, 1000))
    }
  }

  return {
    listen: async (channel: string, handler: Handler, listenOptions: ListenOptions = {}) => {
      let channelHandlers = handlers.get(channel)
      if (!channelHandlers) {
        channelHandlers = new Set()
        handlers.set(channel, channelHandlers)
        const connection = await connect()
        await connection.query(`listen ${quote(channel)}`)
      }
      channelHandlers.add(handler)
      const { onReconnect } = listenOptions
      // A wrapper of its own, so one function given twice is removed once per subscription.
      const reconnected = onReconnect ? () => onReconnect() : undefined
      if (reconnected) reconnectHandlers.add(reconnected)
      return async () => {
        if (reconnected) reconnectHandlers.delete(reconnected)
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
