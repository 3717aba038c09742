import { readFileSync } from 'node:fs'

/**
 * What app code could try against the host from inside a box (host unix sockets, the checkout and
 * DATA_DIR, pid 1's command line, nested user namespaces, /tmp). Run with node in a box or deployed
 * server; prints one JSON line.
 */
export const hostProbeSource = `
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import net from 'node:net'
const input = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const connect = (path) => new Promise((resolve) => {
  const socket = net.connect({ path: path.startsWith('@') ? '\\0' + path.slice(1) : path, timeout: 1500 })
  socket.once('connect', () => { socket.destroy(); resolve('open') })
  socket.once('timeout', () => { socket.destroy(); resolve('timeout') })
  socket.once('error', (error) => resolve(error.code ?? error.message))
})
const sockets = {}
for (const path of input.sockets ?? []) sockets[path] = await connect(path)
const visible = {}
for (const path of input.paths ?? []) visible[path] = existsSync(path)
let nestedUserNamespace
try {
  nestedUserNamespace = execFileSync('unshare', ['-Ur', 'id'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
} catch (error) {
  nestedUserNamespace = 'refused: ' + String(error.stderr ?? error.message).trim()
}
let tmpWritable = false
try { writeFileSync('/tmp/probe-' + process.pid, 'x'); tmpWritable = true } catch {}
const status = readFileSync('/proc/self/status', 'utf8')
console.log('HOSTPROBE' + JSON.stringify({
  sockets,
  visible,
  pid1: readFileSync('/proc/1/cmdline', 'utf8').split('\\0').join(' '),
  nestedUserNamespace,
  tmpWritable,
  seccomp: /^Seccomp:\\s+(\\d)/m.exec(status)?.[1],
  uid: process.getuid(),
  sysVisible: existsSync('/sys/fs/cgroup'),
}))
`

export type HostProbeResult = {
  sockets: Record<string, string>
  visible: Record<string, boolean>
  pid1: string
  nestedUserNamespace: string
  tmpWritable: boolean
  seccomp: string | undefined
  uid: number
  sysVisible: boolean
}

export function parseHostProbe(output: string): HostProbeResult {
  const line = output.split('\n').find((text) => text.startsWith('HOSTPROBE{'))
  if (!line) throw new Error(`The probe printed no result:\n${output}`)
  return JSON.parse(line.slice('HOSTPROBE'.length)) as HostProbeResult
}

/**
 * The host's listening unix sockets, from its /proc/net/unix: paths, and abstract names as
 * `@name` (the flag 0x10000 is __SO_ACCEPTCON, a socket that listens).
 */
export function hostListeningSockets(): string[] {
  const lines = readFileSync('/proc/net/unix', 'utf8').trim().split('\n').slice(1)
  const found = new Set<string>()
  for (const line of lines) {
    const fields = line.trim().split(/\s+/)
    const flags = Number.parseInt(fields[3] ?? '0', 16)
    const socketPath = fields[7]
    if (socketPath && (flags & 0x10000) !== 0) found.add(socketPath)
  }
  return [...found]
}
