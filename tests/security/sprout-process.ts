import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { waitFor } from './wait-for.ts'

const repositoryRoot = path.resolve(import.meta.dirname, '../..')

/** A real Sprout server (`scripts/start.ts`) on `dataDir`, in its own process group like `npm start`. */
export function startSprout(dataDir: string, settings: Record<string, string>) {
  const environment: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(VITEST|NODE_OPTIONS|TEST_|DATABASE_URL)/.test(name)) {
      environment[name] = value
    }
  }
  const output = { text: '' }
  const server: ChildProcess = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: repositoryRoot,
    env: {
      ...environment,
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      SPROUT_SKIP_BUILD: '1',
      ...settings,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (text: string) => {
    output.text = (output.text + text).slice(-8000)
  }
  server.stdout?.setEncoding('utf8').on('data', keep)
  server.stderr?.setEncoding('utf8').on('data', keep)
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
  return {
    server,
    output,
    exited,
    ready: () =>
      waitFor(
        () => `the server to be ready:\n${output.text}`,
        90_000,
        () => {
          if (server.exitCode !== null)
            throw new Error(`Sprout exited while starting:\n${output.text}`)
          return output.text.includes('Sprout is ready') ? true : undefined
        },
      ),
    /** Sends `signal` to its process group and waits for it to exit. */
    stop: async (signal: 'SIGTERM' | 'SIGKILL') => {
      if (server.exitCode === null && server.signalCode === null)
        process.kill(-(server.pid ?? 0), signal)
      await exited
    },
  }
}
