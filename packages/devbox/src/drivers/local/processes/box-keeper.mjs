// Runs an unsandboxed box's command (or the dependency install) as leader of its own process group,
// and SIGKILLs that whole group so nothing outlives the server
// (docs/architecture/devbox.md "Sandbox"):
// - when the server goes away without stopping it: the server holds our stdin pipe
//   (`spawnProcessGroup` in process-group.ts), which closes only when the server is gone, even
//   before this script has started;
// - on SIGTERM, SIGINT or SIGHUP: the group gets the signal, then SIGKILL after a short grace.
// The command gets no stdin. Plain JavaScript: it starts with every command.
import { spawn } from 'node:child_process'
import { fstatSync } from 'node:fs'

const stopGraceMs = 1000

const [command, ...args] = process.argv.slice(2)
if (!command) {
  console.error('box-keeper needs a command to run')
  process.exit(2)
}

/** Everything in our process group, ourselves included. */
const killGroup = () => {
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

const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] })
child.on('error', (error) => {
  console.error(error.message)
  process.exit(127)
})
child.on('exit', (code, signal) => {
  // Asked to stop: nothing of the group may stay behind us.
  if (stopping) killGroup()
  process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15))
})
