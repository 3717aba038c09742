// Runs one command of an unsandboxed box (DEVBOX_SANDBOX=off, or no bubblewrap) and makes sure
// it does not outlive the server: when the server goes away without stopping it (a crash, a
// SIGKILL), everything in this process group is killed. Sandboxed boxes get the same from
// bubblewrap's --die-with-parent. Plain JavaScript: it starts with every command.
import { spawn } from 'node:child_process'

const [command, ...args] = process.argv.slice(2)
if (!command) {
  console.error('box-keeper needs a command to run')
  process.exit(2)
}
const server = process.ppid
const killGroup = () => {
  try {
    process.kill(-process.pid, 'SIGKILL')
  } catch {
    process.exit(1)
  }
}
const watch = setInterval(() => {
  if (process.ppid !== server) killGroup()
}, 250)
const child = spawn(command, args, { stdio: 'inherit' })
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal))
}
child.on('error', (error) => {
  console.error(error.message)
  process.exit(127)
})
child.on('exit', (code, signal) => {
  clearInterval(watch)
  process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15))
})
