// Runs one command of an unsandboxed box (DEVBOX_SANDBOX=off, or no bubblewrap), and the
// dependency install, and makes sure it does not outlive the server (docs/architecture/devbox.md
// "Sandbox"). It is the leader of its own process group, which holds everything the command
// starts, and that whole group is killed with SIGKILL:
// - when the server goes away without stopping it (a crash, a SIGKILL): the server holds our
//   stdin, a pipe (`spawnBoxProcess` in box-process.ts), and its end closes only when the server
//   is gone, whenever that happens, even before this script has started;
// - when we are asked to stop (SIGTERM, SIGINT, SIGHUP): the whole group gets the signal, and
//   SIGKILL after a short grace.
// The command itself gets no stdin. Sandboxed boxes get the same from bubblewrap's
// --die-with-parent. Plain JavaScript: it starts with every command.
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
