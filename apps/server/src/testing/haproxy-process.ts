/** TEST HELPERS: Debian's HAProxy as a real process in front of Sprout instances. */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/** An instance behind the balancer: its name in the config (`sprout-a`) and where it listens. */
export type HaproxyBackend = { name: string; port: number; host?: string }

/** A request as HAProxy's log line tells it: `GET /healthz HTTP/1.1` answered 200 by `sprout-a`. */
export type LoggedRequest = { server: string; status: number; request: string }

/** The configuration operators copy (docs/operations/several-instances.md), which the tests run. */
export const haproxyTemplatePath = path.resolve(
  import.meta.dirname,
  '../../../../deploy/haproxy/haproxy.cfg',
)

/** The haproxy executable (apt's, installed by .ci/run), or undefined where it is missing. */
export function haproxyExecutable(): string | undefined {
  for (const candidate of ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) {
    if (existsSync(candidate)) return candidate
  }
  try {
    return (
      execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim() || undefined
    )
  } catch {
    return undefined
  }
}

/**
 * deploy/haproxy/haproxy.cfg with its bind, server, log and stats socket lines swapped for a
 * test's: the rest (balance, health checks, timeouts, retries) is the file's own. Throws when
 * the file no longer has one of them, so the tests never run another configuration than the one
 * the docs give.
 */
export function haproxyConfig(options: {
  port: number
  backends: HaproxyBackend[]
  socketPath: string
  template?: string
}): string {
  const template = options.template ?? readFileSync(haproxyTemplatePath, 'utf8')
  const replace = (text: string, pattern: RegExp, replacement: string) => {
    if (!pattern.test(text)) throw new Error(`haproxy.cfg has no line matching ${pattern}`)
    return text.replace(pattern, replacement)
  }
  const servers = options.backends
    .map(({ name, host, port }) => `    server ${name} ${host ?? '127.0.0.1'}:${port}`)
    .join('\n')
  // Both loopbacks where the machine has IPv6: a browser may try `localhost` as ::1 first.
  const binds = [`    bind 127.0.0.1:${options.port}`]
  if (hasIpv6Loopback()) binds.push(`    bind [::1]:${options.port}`)
  let config = replace(template, /^ {4}bind .*$/m, binds.join('\n'))
  config = replace(config, /^ {4}log \/dev\/log .*$/m, '    log stdout format raw local0')
  config = replace(config, /^( {4}stats socket )\S+/m, `$1${options.socketPath}`)
  config = replace(config, /(^ {4}server .*\n)+/m, `${servers}\n`)
  return config
}

function hasIpv6Loopback(): boolean {
  return Object.values(os.networkInterfaces()).some((addresses) =>
    addresses?.some((address) => address.address === '::1'),
  )
}

/** A free TCP port on loopback, as the kernel hands one out (for HAProxy's bind). */
export async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/**
 * Starts `haproxy -f {config} -db` (foreground) for `backends` on `port` (a free one if not
 * given) and waits until it accepts connections. Use:
 *
 *   const balancer = await startHaproxy({ backends: [{ name: 'sprout-a', port: 29101 }, …] })
 *   await balancer.waitForHealthy(['sprout-a', …])           // their health checks passed
 *   await balancer.waitForStatus({ 'sprout-a': 'DOWN' })     // UP, DOWN, DRAIN, MAINT…
 *   fetch(`${balancer.url}/healthz`)                          // PUBLIC_URL = balancer.url
 *   balancer.servedBy()              // requests per instance, from HAProxy's own log lines
 *   await balancer.setState('sprout-a', 'drain')             // the runtime API, as operators do
 *   await balancer.stop()
 *
 * `url` is `http://localhost:{port}`, so `{slug}.preview.localhost:{port}` reaches it too.
 */
export async function startHaproxy(options: { backends: HaproxyBackend[]; port?: number }) {
  const executable = haproxyExecutable()
  if (!executable) throw new Error('haproxy is not installed (apt-get install haproxy)')
  const port = options.port ?? (await freePort())
  const folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-haproxy-'))
  const socketPath = path.join(folder, 'admin.sock')
  const configPath = path.join(folder, 'haproxy.cfg')
  await writeFile(configPath, haproxyConfig({ port, backends: options.backends, socketPath }))
  const served = new Map<string, number>()
  // The last requests HAProxy logged, for tests that look at which instance served what.
  const logged: LoggedRequest[] = []
  let output = ''
  let partial = ''
  const child: ChildProcess = spawn(executable, ['-f', configPath, '-db'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8').on('data', (text: string) => {
      output = (output + text).slice(-16_000)
      const lines = (partial + text).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) {
        // httplog: `{client} [{date}] {frontend} {backend}/{server} {timers} {status} … "{request}"`
        const match = /\] \S+ [^/\s]+\/(\S+) [-\d/]+ (\d+) .*"([^"]*)"$/.exec(line)
        const server = match?.[1]
        if (!match || !server || server === '<NOSRV>') continue
        served.set(server, (served.get(server) ?? 0) + 1)
        logged.push({ server, status: Number(match[2]), request: match[3] ?? '' })
        if (logged.length > 20_000) logged.shift()
      }
    })
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const runtime = (command: string) => runtimeCommand(socketPath, command)
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      await exited
    }
    await rm(folder, { recursive: true, force: true })
  }
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`haproxy exited:\n${output}`)
        return canConnect(port)
      },
      15_000,
      'haproxy to listen',
    )
  } catch (error) {
    await stop()
    throw error
  }

  /** A column of `show stat` per server: `status` (`UP`, `DOWN`, `DRAIN`…), `check_status`… */
  const stat = async (column: string): Promise<Record<string, string>> => {
    const [header = '', ...rows] = (await runtime('show stat')).trim().split('\n')
    const columns = header.replace(/^# /, '').split(',')
    const name = columns.indexOf('svname')
    const wanted = columns.indexOf(column)
    const result: Record<string, string> = {}
    for (const row of rows) {
      const cells = row.split(',')
      const server = cells[name] ?? ''
      if (server !== 'FRONTEND' && server !== 'BACKEND') result[server] = cells[wanted] ?? ''
    }
    return result
  }
  const statuses = () => stat('status')

  return {
    port,
    url: `http://localhost:${port}`,
    configPath,
    /** Requests HAProxy logged per server name since it started. */
    servedBy: () => Object.fromEntries(served) as Record<string, number>,
    /** The last 20,000 requests logged: the server, the status and the request line. */
    requests: (): readonly LoggedRequest[] => logged,
    output: () => output,
    statuses,
    /** Waits until each named server has the status given (health checks run every 2 s). */
    waitForStatus: (wanted: Record<string, string>, timeoutMs = 60_000) =>
      waitFor(
        async () => {
          const current = await statuses()
          return Object.entries(wanted).every(([server, status]) => current[server] === status)
        },
        timeoutMs,
        `haproxy's servers to be ${JSON.stringify(wanted)}`,
      ),
    /**
     * Waits until the last health check of each named server passed (`L7OK`): a server is UP
     * from the start, before any check ran.
     */
    waitForHealthy: (names: string[], timeoutMs = 60_000) =>
      waitFor(
        async () => {
          const checks = await stat('check_status')
          return names.every((name) => checks[name] === 'L7OK')
        },
        timeoutMs,
        `haproxy's health checks of ${names.join(', ')} to pass`,
      ),
    /** `set server sprout/{name} state {state}`: drain before a stop, ready after a start. */
    setState: (name: string, state: 'ready' | 'drain' | 'maint') =>
      runtime(`set server sprout/${name} state ${state}`),
    runtime,
    stop,
  }
}

/** One command on HAProxy's runtime API socket; answers its whole reply. */
function runtimeCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let reply = ''
    const socket = net.createConnection(socketPath, () => socket.end(`${command}\n`))
    socket.setEncoding('utf8')
    socket.on('data', (text: string) => {
      reply += text
    })
    socket.on('error', reject)
    socket.on('close', () => resolve(reply))
  })
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection({ port, host: '127.0.0.1' })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}
