import { ConfigError, parseConfig } from './config/config.ts'
import { startServer } from './start-server.ts'

try {
  const config = parseConfig(process.env)
  if (config.providers.demo.testGatesDir) {
    console.warn(
      `DEMO_TEST_GATES_DIR is set: Demo model runs naming a test gate wait for ${config.providers.demo.testGatesDir}. For tests only.`,
    )
  }
  const started = Date.now()
  const server = await startServer(config, { serveWeb: true })
  console.log(
    `Sprout is ready on ${config.publicUrl} (${server.database.kind}, ${Date.now() - started} ms)`,
  )
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await server.stop()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}
