// A box's root from an allow-list (decision 021) against the host's root with hidden folders
// (before it), in one run: what bubblewrap's set-up of each costs a command, alternating.
import { chownSync, mkdirSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  type ProcessCommand,
  spawnProcessGroup,
} from '../packages/devbox/src/drivers/local/processes/process-group.ts'
import { createSandbox } from '../packages/devbox/src/drivers/local/sandbox/sandbox.ts'
import { silentLogger } from '../packages/devbox/src/logger.ts'
import { p50AndP95 } from './lib/stats.ts'

const rounds = 60

/** Started as the server starts a box's process (its shell, options and filter included). */
function timedRun(command: ProcessCommand | string[]): Promise<number> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawnProcessGroup(command, { cwd: '/', env: { PATH: '/usr/bin:/bin' } })
    child.stdout.resume()
    child.stderr.resume()
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`exited ${code}`)),
    )
  })
}

export async function benchBoxRoot(): Promise<Record<string, string>> {
  const sandboxCheck = createSandbox({
    mode: 'auto',
    stateDirectory: os.tmpdir(),
    logger: silentLogger,
  })
  if (!sandboxCheck.enabled) return { skipped: 'needs bubblewrap' }
  const root = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-box-root-'))
  try {
    const workspace = path.join(root, 'workspaces', 'bench-box')
    mkdirSync(workspace, { recursive: true })
    const sandbox = createSandbox({ mode: 'auto', stateDirectory: root, logger: silentLogger })
    const box = sandbox.forBox({ boxId: 'bench-box', workspacePath: workspace })
    if (box.owner) chownSync(workspace, box.owner.uid, box.owner.gid)
    const allowListed = () =>
      box.commandFor({ cwd: workspace, script: 'true', path: '/usr/bin:/bin' })
    // The command line before decision 021: the host's root, hidden folders, the same rest.
    const hostRoot = () => [
      '/usr/bin/bwrap',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--size',
      String(256 * 1024 * 1024),
      '--tmpfs',
      '/tmp',
      '--tmpfs',
      root,
      '--tmpfs',
      '/home',
      '--tmpfs',
      os.homedir(),
      '--perms',
      '0755',
      '--dir',
      '/home/sprout',
      '--bind',
      workspace,
      '/home/sprout/app',
      '--chdir',
      '/home/sprout/app',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--hostname',
      'sprout-box',
      '--unshare-cgroup-try',
      '--die-with-parent',
      '--',
      ...(box.owner
        ? [
            '/usr/bin/setpriv',
            `--reuid=${box.owner.uid}`,
            `--regid=${box.owner.gid}`,
            '--clear-groups',
            '--no-new-privs',
            '--bounding-set=-all',
            '--inh-caps=-all',
            '--',
          ]
        : []),
      'bash',
      '-lc',
      'true',
    ]
    const times: Record<string, number[]> = { 'allow-listed root': [], 'host root': [] }
    await timedRun(allowListed())
    await timedRun(hostRoot())
    for (let round = 0; round < rounds; round++) {
      times['allow-listed root']?.push(await timedRun(allowListed()))
      times['host root']?.push(await timedRun(hostRoot()))
    }
    const figures: Record<string, string> = {}
    for (const [mode, list] of Object.entries(times)) {
      figures[
        `a command (\`bash -lc true\`) in a fresh sandbox, ${mode} (p50 / p95, n=${rounds})`
      ] = p50AndP95(list)
    }
    await box.release()
    return figures
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}
