// Runs an unsandboxed box's command (or the dependency install) as leader of its own process group,
// and SIGKILLs that whole group so nothing outlives the server
// (docs/architecture/devbox.md "Nothing outlives Sprout"):
// - when the server goes away without stopping it: the server holds our stdin pipe
//   (`spawnProcessGroup` in process-group.ts), which closes only when the server is gone, even
//   before this script has started;
// - on SIGTERM, SIGINT or SIGHUP: the group gets the signal, then SIGKILL after a short grace.
// Given `--cgroup {box cgroup}` (one per controller), the command runs in a cgroup of its own
// under each, `run-{our pid}`, made here: what leaves the group (`setsid`, a double fork) stays
// in it, and whenever the command ends, is stopped or the server goes, everything in it is
// killed and the cgroup removed. We stay outside it, so nothing in it can outlast our kill.
// The command gets no stdin. Plain JavaScript: it starts with every command.
import { spawn } from 'node:child_process'
import { fstatSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const stopGraceMs = 1000

const boxCgroups = []
let argv = process.argv.slice(2)
while (argv[0] === '--cgroup' && argv[1]) {
  boxCgroups.push(argv[1])
  argv = argv.slice(2)
}
const [command, ...args] = argv
if (!command) {
  console.error('box-keeper needs a command to run')
  process.exit(2)
}

const runCgroups = boxCgroups.map((directory) => path.join(directory, `run-${process.pid}`))
try {
  for (const directory of runCgroups) mkdirSync(directory)
} catch (error) {
  console.error(`The command's cgroup could not be made, so it did not run: ${error.message}`)
  process.exit(126)
}

const pause = new Int32Array(new SharedArrayBuffer(4))
/** Kills everything in the command's cgroups, waits until they are empty, and removes them. */
const killCgroups = () => {
  if (runCgroups.length === 0) return
  for (const directory of runCgroups) {
    try {
      // cgroup v2 (Linux 5.14): the kernel kills the whole subtree, forks in flight included.
      writeFileSync(path.join(directory, 'cgroup.kill'), '1')
    } catch {}
  }
  const deadline = Date.now() + 5000
  for (;;) {
    const ids = new Set()
    for (const directory of runCgroups) {
      try {
        for (const line of readFileSync(path.join(directory, 'cgroup.procs'), 'utf8').split('\n'))
          if (line) ids.add(Number(line))
      } catch {}
    }
    if (ids.size === 0 || Date.now() > deadline) break
    for (const id of ids) {
      try {
        process.kill(id, 'SIGKILL')
      } catch {}
    }
    Atomics.wait(pause, 0, 0, 10)
  }
  for (const directory of runCgroups) {
    try {
      rmdirSync(directory)
    } catch {}
  }
}

/** Everything in our cgroups and process group, ourselves included (so the group goes last). */
const killGroup = () => {
  killCgroups()
  try {
    process.kill(-process.pid, 'SIGKILL')
  } catch {}
  process.exit(137)
}

const stdinIsServerPipe = (() => {
  try {
    const stdin = fstatSync(0)
    return stdin.isFIFO() || stdin.isSocket()
  } catch {
    return false
  }
})()
if (stdinIsServerPipe) {
  // Nothing is ever written to it: its end (or an error) means the server is gone.
  process.stdin.on('data', () => {})
  process.stdin.on('end', killGroup)
  process.stdin.on('error', killGroup)
  process.stdin.on('close', killGroup)
} else {
  // Started without the server's pipe: watch our parent instead (a changed parent means it died).
  const server = process.ppid
  setInterval(() => {
    if (process.ppid !== server || server === 1) killGroup()
  }, 250)
}

let stopping = false
const stop = (signal) => {
  if (stopping) return
  stopping = true
  // The whole group, not only our child: what it started in the background goes too.
  try {
    process.kill(-process.pid, signal)
  } catch {}
  setTimeout(killGroup, stopGraceMs)
}
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(signal))

// The command joins its cgroups before it runs anything (the paths are ours: no quoting needed).
const joined =
  runCgroups.length === 0
    ? [command, ...args]
    : [
        '/bin/sh',
        '-c',
        `${runCgroups.map((directory) => `echo $$ > '${directory}/cgroup.procs' && `).join('')}exec "$@"`,
        'sh',
        command,
        ...args,
      ]
const child = spawn(joined[0], joined.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] })
child.on('error', (error) => {
  console.error(error.message)
  killCgroups()
  process.exit(127)
})
child.on('exit', (code, signal) => {
  // Asked to stop: nothing of the group may stay behind us.
  if (stopping) killGroup()
  // Ended: nothing it started may outlive it, in its group or not.
  killCgroups()
  process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15))
})
