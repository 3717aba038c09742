import { execFile, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/**
 * A real git server on loopback for 'Push to Git' tests: git's own `git http-backend` (CGI)
 * behind node:http, serving bare repositories under a temporary root and accepting only Basic
 * auth whose password is `token`. Nothing beyond loopback.
 */
export async function startGitHttpServer(token: string, port = 0) {
  const root = await mkdtemp(path.join(tmpdir(), 'sprout-git-server-'))
  const seenAuthorizations: string[] = []
  const server = createServer((request, response) => {
    const authorization = request.headers.authorization ?? ''
    seenAuthorizations.push(authorization)
    const [scheme, encoded] = authorization.split(' ')
    const password = Buffer.from(encoded ?? '', 'base64')
      .toString('utf8')
      .split(':')
      .slice(1)
      .join(':')
    if (scheme !== 'Basic' || password !== token) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' })
      response.end('unauthorized')
      return
    }
    serveGit(root, request, response)
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const listening = (server.address() as AddressInfo).port
  const git = (args: string[]) =>
    run('git', args, { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } })
  return {
    port: listening,
    host: `127.0.0.1:${listening}`,
    seenAuthorizations,
    /** Creates an empty bare repository; answers its URL. */
    createRepository: async (name: string) => {
      await git(['init', '-q', '--bare', '-b', 'main', path.join(root, `${name}.git`)])
      return `http://127.0.0.1:${listening}/${name}.git`
    },
    /** `git log --format=%H %s` of a branch in the server's repository. */
    log: async (name: string, branch = 'main') =>
      (await git(['-C', path.join(root, `${name}.git`), 'log', '--format=%H %s', branch])).stdout
        .split('\n')
        .filter(Boolean),
    /** Runs git in the server's repository (to make it diverge). */
    git: (name: string, args: string[]) => git(['-C', path.join(root, `${name}.git`), ...args]),
    root,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await rm(root, { recursive: true, force: true })
    },
  }
}

function serveGit(root: string, request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://git.invalid')
  const backend = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REMOTE_USER: 'tester',
      REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: request.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      ...(request.headers['content-encoding']
        ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] }
        : {}),
      ...(request.headers['git-protocol']
        ? { GIT_PROTOCOL: String(request.headers['git-protocol']) }
        : {}),
    },
  })
  request.pipe(backend.stdin)
  let head = Buffer.alloc(0)
  let headersDone = false
  backend.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      response.write(chunk)
      return
    }
    head = Buffer.concat([head, chunk])
    const end = head.indexOf('\r\n\r\n')
    if (end < 0) return
    headersDone = true
    let status = 200
    const headers: Record<string, string> = {}
    for (const line of head.subarray(0, end).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':')
      const name = line.slice(0, colon).trim()
      const value = line.slice(colon + 1).trim()
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10)
      else headers[name] = value
    }
    response.writeHead(status, headers)
    response.write(head.subarray(end + 4))
  })
  backend.on('close', () => {
    if (!headersDone) response.writeHead(500)
    response.end()
  })
}

/**
 * A hostile git host for 'Push to Git' tests: it answers every request with a smart-HTTP
 * advertisement whose `ERR` line echoes the Authorization header it got, raw and decoded, so git
 * prints it in its error. Loopback only.
 */
export async function startEchoingGitServer() {
  const seenAuthorizations: string[] = []
  const server = createServer((request, response) => {
    const authorization = request.headers.authorization ?? ''
    seenAuthorizations.push(authorization)
    const encoded = authorization.split(' ')[1] ?? ''
    const decoded = Buffer.from(encoded, 'base64').toString('utf8')
    const password = decoded.split(':').slice(1).join(':')
    const echoed = [
      `got ${authorization}`,
      `decoded ${decoded}`,
      `password ${password}`,
      `url ${encodeURIComponent(password)}`,
      `user ${Buffer.from(`user:${password}`).toString('base64')}`,
      `bare ${Buffer.from(password).toString('base64url')}`,
    ].join(' | ')
    const line = (text: string) =>
      `${(Buffer.byteLength(text) + 4).toString(16).padStart(4, '0')}${text}`
    response.writeHead(200, {
      'content-type': 'application/x-git-receive-pack-advertisement',
      'cache-control': 'no-cache',
    })
    response.end(`${line('# service=git-receive-pack\n')}0000${line(`ERR ${echoed}\n`)}`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/echo.git`,
    seenAuthorizations,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
