import type { DevServerTarget } from '../devbox-driver.ts'

/**
 * One running production server of an app: `node server/index.js` of one deploy, confined like
 * a dev box (docs/architecture/devbox.md, "Production servers").
 */
export type AppServerInstance = {
  /** Unique per start: the name of its sandbox (network namespace, cgroups). */
  id: string
  appId: string
  deployId: string
  /** Where the server reaches it: the instance's unix socket, or a loopback port unsandboxed. */
  target: () => DevServerTarget
  /** Its latest output (stdout and stderr), at most 64 KB. */
  logs: () => string
  /** True until its process has exited. */
  running: () => boolean
  /** Settles when its process has exited (a crash, or after `stop`). */
  exited: Promise<{ code: number | null; signal: string | null }>
  /** Process group id of the server process, while it runs (benchmarks, tests). */
  processGroupId: () => number | undefined
  /** Kills its processes and frees its namespace and cgroups; idempotent. */
  stop: () => Promise<void>
}

export type StartAppServerInput = {
  appId: string
  deployId: string
  /** The deploy folder, `{deploysDir}/{appId}/{deployId}`, holding `server/index.js`. */
  deployPath: string
  /** `{deploysDir}/{appId}/data`, shown at /home/sprout/data; DATABASE_URL points into it. */
  dataPath: string
  /** How long `GET /api/health` may take to answer 2xx after the start (default 20 s). */
  healthTimeoutMs?: number
  /** Each piece of output as it arrives. */
  onOutput?: (text: string) => void
  /** Extra environment: the app's vault secrets (docs/product/vault.md "Where values go"). */
  env?: Record<string, string>
}

/** Starts an instance and resolves once it answers its health route. */
export type StartAppServer = (input: StartAppServerInput) => Promise<AppServerInstance>

/** The server exited or did not answer its health route in time; `output` is its tail. */
export class AppServerStartError extends Error {
  override name = 'AppServerStartError'
  readonly output: string

  constructor(message: string, output: string) {
    super(message)
    this.output = output
  }
}

export const defaultHealthTimeoutMs = 20_000
export const healthPath = '/api/health'
