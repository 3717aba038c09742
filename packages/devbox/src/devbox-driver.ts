/**
 * A dev box: a workspace with an app's source and its running dev server
 * (docs/architecture/devbox.md).
 */

/**
 * `fullstack`: the React client with a Hono server under `server/` and an embedded database, the
 * starter of new apps; `vite-react`: the client alone, the starter of apps made before it.
 */
export type PackType = 'fullstack' | 'vite-react'

export type ExecOptions = {
  /** Seconds; the whole process tree is killed when it runs out. */
  timeoutSeconds: number
  env?: Record<string, string>
  /** Working directory relative to the workspace root. */
  cwd?: string
  signal?: AbortSignal
  /** Called with each piece of output as it arrives (stdout and stderr interleaved). */
  onOutput?: (chunk: string) => void
  /** Bytes of output kept (default 64 KiB); the rest is dropped and `truncated` set. */
  outputLimitBytes?: number
  /**
   * `onOutput` gets the output past `outputLimitBytes` too (only what is kept is cut): for a
   * caller that writes a large output elsewhere as it comes, such as Push to Git's bundle.
   */
  streamPastLimit?: boolean
}

export type ExecResult = {
  exitCode: number | null
  output: string
  truncated: boolean
  timedOut: boolean
  aborted: boolean
  durationMs: number
}

/** `path` is relative to the workspace root, with `/` separators. */
export type FileEntry = { path: string; type: 'file' | 'directory'; size: number }

export type SearchMatch = { path: string; line: number; text: string }

export type SearchOptions = {
  pattern: string
  path?: string
  fileType?: string
  maxMatches?: number
}

/**
 * A box with its own network namespace is reached only through a unix socket (docs/architecture/
 * devbox.md, "Network"); an unconfined one through a port on the server's loopback.
 */
export type DevServerTarget = { socketPath: string } | { host: string; port: number }

export type DevServerStatus = 'stopped' | 'starting' | 'running' | 'crashed'

/** File operations confined to the workspace: anything resolving outside it is refused. */
export type WorkspaceFiles = {
  read: (relativePath: string) => Promise<string>
  write: (relativePath: string, content: string) => Promise<void>
  delete: (relativePath: string) => Promise<void>
  list: (relativePath?: string, options?: { recursive?: boolean }) => Promise<FileEntry[]>
  search: (options: SearchOptions) => Promise<SearchMatch[]>
}

export type Devbox = {
  id: string
  packType: PackType
  /** Absolute path of the workspace folder (a git repository). */
  workspacePath: string
  /** Absolute path of the app's preview data folder (its database), outside the workspace. */
  dataPath?: string
  files: WorkspaceFiles
  /**
   * Copies a workspace folder (e.g. `dist`) to `destination` on Sprout's disk: regular files and
   * folders only, never a link, within the build output's limits; WorkspacePathError
   * `not-found` or `not-a-directory` when there is no such folder. Deploys use it, never
   * `workspacePath`, which may be a path inside a pod.
   */
  copyFolderOut: (relativePath: string, destination: string) => Promise<void>
  exec: (command: string, options: ExecOptions) => Promise<ExecResult>
  devServer: {
    start: () => Promise<void>
    stop: () => Promise<void>
    status: () => DevServerStatus
    /** Where the server reaches the dev server while it runs: a unix socket, or a loopback port. */
    target: () => DevServerTarget | undefined
    /**
     * The dev server's address as a command inside the box reaches it (`http://127.0.0.1:5173`),
     * while it runs: the acceptance tests and the browser tool open the app there.
     */
    urlInside?: () => string | undefined
    restarts: () => number
    /** The dev server's latest output (stdout and stderr), e.g. to show a failed start. */
    logs?: () => string
    /**
     * Extra environment for the dev server (the app's vault secrets): a running server is
     * restarted with it, a stopped one gets it when it next starts; the same values do nothing.
     */
    setEnvironment?: (env: Record<string, string>) => Promise<void>
  }
  /** Commits every change in the workspace; returns the commit id, or undefined when clean. */
  checkpoint: (message: string) => Promise<string | undefined>
  /**
   * Stops the dev server of an idle box and frees what the box keeps only for it (its network
   * bridge); the next `devServer.start()` or command brings them back. Without it, idling only
   * stops the dev server (docs/architecture/devbox.md "Idle dev servers").
   */
  suspend?: () => Promise<void>
}

export type DevboxDriver = {
  /** Creates a workspace from templates/{packType}, installs dependencies, starts its dev server. */
  provision: (packType: PackType, options?: { id?: string }) => Promise<Devbox>
  /**
   * Re-attaches to an existing workspace after a restart (dev server started again, with `env`
   * from the start: the app's secrets, as `devServer.setEnvironment` gives them).
   */
  open: (
    id: string,
    packType: PackType,
    options?: { env?: Record<string, string> },
  ) => Promise<Devbox>
  destroy: (id: string) => Promise<void>
  /**
   * Stops the box's commands and dev server and lets go of it, its workspace kept, so another
   * server may `open` it (an instance that lost the box's lease, decision 033).
   */
  close?: (id: string) => Promise<void>
  /** Stops every dev server this driver started and releases its disks (server shutdown). */
  shutdown: () => Promise<void>
}

export type WorkspacePathErrorCode =
  | 'refused'
  | 'outside-workspace'
  | 'symbolic-link'
  | 'not-found'
  | 'not-a-file'
  | 'not-a-directory'
  | 'too-large'
  | 'disk-full'

/** Thrown for a path outside the workspace or otherwise refused; its message is shown to users. */
export class WorkspacePathError extends Error {
  override name = 'WorkspacePathError'
  readonly code: WorkspacePathErrorCode

  constructor(message: string, code: WorkspacePathErrorCode = 'refused') {
    super(message)
    this.code = code
  }
}
