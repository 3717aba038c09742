import { spawnSync } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { DevboxLogger } from '../../logger.ts'

export type SandboxMode = 'auto' | 'off'

export type Sandbox = {
  /** True when commands run under bubblewrap. */
  enabled: boolean
  /** The argv that runs `script` with bash as a login shell, confined to the workspace. */
  commandFor: (input: {
    workspacePath: string
    cwd: string
    script: string
    path: string
  }) => string[]
}

const bubblewrapCandidates = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap']

export function findBubblewrap(): string | undefined {
  return bubblewrapCandidates.find((candidate) => existsSync(candidate))
}

/** Whether bubblewrap is installed and can actually create a sandbox here (containers may forbid it). */
export function bubblewrapWorks(bubblewrapPath: string): boolean {
  const probe = spawnSync(bubblewrapPath, [...baseArguments(), '--', 'true'], {
    stdio: 'ignore',
    timeout: 5000,
  })
  return probe.status === 0
}

function baseArguments(): string[] {
  return ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp']
}

/**
 * Builds the sandbox. With bubblewrap the system is read-only, `hiddenPaths` (the devbox root
 * with every other workspace, the product's DATA_DIR, the server user's home) are covered by
 * empty tmpfs mounts, and only the box's own workspace is writable. The network stays on so
 * `npm install` works.
 */
export function createSandbox(input: {
  mode: SandboxMode
  hiddenPaths: string[]
  logger: DevboxLogger
}): Sandbox {
  const bubblewrapPath = input.mode === 'off' ? undefined : findBubblewrap()
  const usable = bubblewrapPath !== undefined && bubblewrapWorks(bubblewrapPath)
  if (!usable || !bubblewrapPath) {
    input.logger.warn(
      input.mode === 'off'
        ? 'Dev box sandbox is off (DEVBOX_SANDBOX=off): commands run as plain processes'
        : 'bubblewrap (bwrap) is not available: dev box commands run without a sandbox. Install bubblewrap to confine them.',
    )
    return {
      enabled: false,
      commandFor: ({ script, path: searchPath }) => [
        'bash',
        '-lc',
        loginScript(searchPath, script),
      ],
    }
  }

  const hidden = hiddenMountPoints([...input.hiddenPaths, os.homedir()])
  const mountArguments = [
    ...hidden.flatMap((hiddenPath) => ['--tmpfs', hiddenPath]),
    ...nodeMountArguments(hidden),
  ]
  return {
    enabled: true,
    commandFor: ({ workspacePath, cwd, script, path: searchPath }) => [
      bubblewrapPath,
      ...baseArguments(),
      ...mountArguments,
      '--bind',
      workspacePath,
      workspacePath,
      '--chdir',
      cwd,
      '--unshare-pid',
      '--unshare-ipc',
      '--die-with-parent',
      '--cap-drop',
      'ALL',
      '--',
      'bash',
      '-lc',
      loginScript(searchPath, script),
    ],
  }
}

/**
 * Node's install prefix (bin/ with node and npm, lib/) must stay visible even when it lies in a
 * hidden folder (nvm in the server user's home); hidden folders inside it are hidden again.
 */
function nodeMountArguments(hidden: string[]): string[] {
  const prefixes = [process.execPath, realpathSync(process.execPath)].map((executable) =>
    path.dirname(path.dirname(executable)),
  )
  const covered = ['/tmp', ...hidden]
  const mounts = [...new Set(prefixes)].filter((prefix) =>
    covered.some((hiddenPath) => isInside(prefix, hiddenPath)),
  )
  const hiddenAgain = hidden.filter((hiddenPath) =>
    mounts.some((prefix) => hiddenPath !== prefix && isInside(hiddenPath, prefix)),
  )
  return [
    ...mounts.flatMap((prefix) => ['--ro-bind', prefix, prefix]),
    ...hiddenAgain.flatMap((hiddenPath) => ['--tmpfs', hiddenPath]),
  ]
}

/** A login shell reads /etc/profile, which resets PATH; put the box's PATH back first. */
function loginScript(searchPath: string, script: string): string {
  return `export PATH=${shellQuote(searchPath)}\n${script}`
}

export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

function hiddenMountPoints(paths: string[]): string[] {
  const candidates = paths
    .filter((candidate) => existsSync(candidate))
    .map((candidate) => realpathSync(candidate))
    // `/tmp` is already an empty tmpfs in the sandbox; hiding `/` would hide everything.
    .filter((candidate) => candidate !== '/' && !isInside(candidate, '/tmp'))
    .sort((first, second) => first.length - second.length)
  const result: string[] = []
  for (const candidate of candidates) {
    if (!result.some((parent) => isInside(candidate, parent))) result.push(candidate)
  }
  return result
}

/** True when `child` is `parent` or below it. */
export function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child)
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  )
}
