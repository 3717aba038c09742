import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { keptByBoxKeeper, type ProcessCommand } from '../processes/process-group.ts'
import { type BoxSandboxState, dataInside, workspaceInside } from './box-sandbox-state.ts'
import { stageBoxUser } from './box-uids.ts'
import { shellQuote } from './shell-quote.ts'
import { wrapBoxCommand } from './wrap-box-command.ts'

/** What runs `script` with bash as a login shell inside the box (spawnProcessGroup starts it). */
export function boxCommand(
  state: BoxSandboxState,
  { cwd, script, path: searchPath }: { cwd: string; script: string; path: string },
): ProcessCommand {
  const { tools } = state
  // A login shell reads /etc/profile, which resets PATH; put the box's PATH back first.
  const loginScript = `export PATH=${shellQuote(searchPath)}\n${limitScript(state)}\n${script}`
  if (!tools.bubblewrapPath) {
    return { argv: keptByBoxKeeper(['bash', '-lc', loginScript], state.cgroup?.directories) }
  }
  const user = state.user
  const userFiles = user ? stageBoxUser(tools.runDirectory, user) : undefined
  const bubblewrapArguments = [
    ...tools.rootArguments,
    // Its own user in passwd and group, over the staged /etc's.
    ...(userFiles
      ? ['--ro-bind', userFiles.passwd, '/etc/passwd', '--ro-bind', userFiles.group, '/etc/group']
      : []),
    state.readOnlyWorkspace ? '--ro-bind' : '--bind',
    state.workspacePath,
    workspaceInside,
    ...(state.dataPath ? ['--bind', state.dataPath, dataInside] : []),
    '--chdir',
    insidePath(state, cwd),
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--hostname',
    'sprout-box',
    '--unshare-cgroup-try',
    // Unprivileged, bubblewrap's own user namespace is closed to nested ones; as root the
    // seccomp filter refuses them (and every other new namespace).
    ...(tools.unprivileged ? ['--unshare-user', '--disable-userns'] : []),
    ...(tools.seccompPath ? ['--seccomp', '4'] : []),
    '--die-with-parent',
  ]
  const command: string[] = []
  if (user && tools.setprivPath) {
    // bubblewrap keeps root's capabilities for setpriv, which drops them all with the uid.
    command.push(
      tools.setprivPath,
      `--reuid=${user.uid}`,
      `--regid=${user.gid}`,
      '--clear-groups',
      '--no-new-privs',
      '--bounding-set=-all',
      '--inh-caps=-all',
      '--',
    )
  } else {
    bubblewrapArguments.push('--cap-drop', 'ALL')
  }
  command.push('bash', '-lc', loginScript)
  return wrapBoxCommand(state, bubblewrapArguments, command)
}

function limitScript({ tools, limits }: BoxSandboxState): string {
  const lines = [`ulimit -f ${limits.diskMb * 1024} 2>/dev/null`, 'ulimit -c 0']
  if (tools.bubblewrapPath && !tools.cgroups) {
    // Without cgroups RLIMIT_NPROC is what is left; it counts every process of the user.
    lines.push(`ulimit -u ${limits.pids + processesOfCurrentUser()} 2>/dev/null`)
  }
  return lines.join('\n')
}

function insidePath(state: BoxSandboxState, hostPath: string): string {
  return state.tools.bubblewrapPath
    ? path.posix.join(workspaceInside, path.relative(state.workspacePath, hostPath))
    : hostPath
}

function processesOfCurrentUser(): number {
  const uid = process.getuid?.()
  let count = 0
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (statSync(`/proc/${name}`).uid === uid) count += 1
    } catch {}
  }
  return count
}
