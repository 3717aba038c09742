import { ConfigError, parseConfig } from './config/config.ts'
import { startServer } from './start-server.ts'

/**
 * How long a stop (SIGTERM, SIGINT) may take: then the process exits anyway, and whatever of
 * the dev boxes is still running dies with it (docs/security.md "Nothing outlives Sprout").
 */
const stopDeadlineMs = 10_000

let server: Awaited<ReturnType<typeof startServer>> | undefined
let stopRequested = false
let stopping: Promise<void> | undefined

const exitWhenStopped = () => {
  if (!server || stopping) return
  const running = server
  stopping = (async () => {
    try {
      await running.stop()
    } catch (error) {
      console.error('Stopping failed:', error instanceof Error ? error.message : error)
      process.exit(1)
    }
    process.exit(0)
  })()
}

// Listened to before anything starts: a signal during start-up stops what has started, once it
// has (a dev box's processes never depend on this: they die with the process however it ends).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second signal does not wait for the first stop.
    if (stopRequested) process.exit(1)
    stopRequested = true
    // Counted from the signal, start-up included.
    setTimeout(() => {
      console.warn(
        `Stopping took longer than ${stopDeadlineMs / 1000} s; exiting, and the dev boxes with us`,
      )
      process.exit(1)
    }, stopDeadlineMs)
    if (!server) console.log(`${signal} during start-up: stopping once started`)
    exitWhenStopped()
  })
}

try {
  const config = parseConfig(process.env)
  if (config.providers.demo.testGatesDir) {
    console.warn(
      `DEMO_TEST_GATES_DIR is set: Demo model runs naming a test gate wait for ${config.providers.demo.testGatesDir}. For tests only.`,
    )
  }
  const started = Date.now()
  server = await startServer(config, { serveWeb: true })
  if (stopRequested) {
    exitWhenStopped()
  } else {
    console.log(
      `Sprout is ready on ${config.publicUrl} (${server.database.kind}, ${Date.now() - started} ms)`,
    )
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}
