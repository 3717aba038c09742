import { pgliteDataDirIn, prepareClusterFromCache } from '@sprout/db/pglite-cluster.ts'
import { ConfigError, parseConfig } from './config/config.ts'
import { DataDirInUseError, lockDataDir } from './config/data-dir-lock.ts'
import type { startServer as StartServer } from './start-server.ts'

/**
 * How long a stop (SIGTERM, SIGINT) may take: then the process exits anyway, and whatever of
 * the dev boxes is still running dies with it (docs/security.md "Nothing outlives Sprout").
 */
const stopDeadlineMs = 10_000
/** How long a start waits for a Sprout that is stopping on the same DATA_DIR (data-dir-lock.ts). */
const dataDirWaitMs = stopDeadlineMs + 5000

let server: Awaited<ReturnType<typeof StartServer>> | undefined
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
  if (config.requireEmailVerification && !config.mail.smtpUrl) {
    console.warn(
      'REQUIRE_EMAIL_VERIFICATION is set but SMTP_URL is not: nobody could confirm an address, so it has no effect.',
    )
  }
  const started = Date.now()
  await lockDataDir(config.dataDir, {
    waitMs: dataDirWaitMs,
    onWait: (processId) =>
      console.log(`Waiting for the Sprout that is stopping (pid ${processId}) to exit…`),
  })
  // A new data directory's cluster is copied (pglite-cluster.ts, by `cp`, a process of its own)
  // while the server's modules load; openDatabase then waits for the same copy and reports its
  // errors (docs/architecture/overview.md "Data").
  if (!config.databaseUrl) {
    void prepareClusterFromCache(pgliteDataDirIn(config.dataDir)).catch(() => undefined)
  }
  const { startServer } = await import('./start-server.ts')
  server = await startServer(config, { serveWeb: true })
  if (stopRequested) {
    exitWhenStopped()
  } else {
    console.log(
      `Sprout is ready on ${config.publicUrl} (${server.database.kind}, ${Date.now() - started} ms)`,
    )
  }
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}
