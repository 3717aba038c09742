import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { instanceIdPrefix } from '../app-servers/instance-id.ts'

/**
 * A dependency-free full-stack app standing in for templates/fullstack in tests; its /api routes
 * (health, crash, leak, reach, tamper, shell, whoami, …) are listed in its server source below. Build-time
 * switches: src/fail-start, src/never-healthy, src/endless-health (a health answer without end)
 * and src/trickle-health (a byte a second).
 */
export const fullStackFixtureFiles: Record<string, string> = {
  'package.json': JSON.stringify({
    name: 'fixture-app',
    private: true,
    type: 'module',
    scripts: { dev: 'node dev.js', build: 'node build.js' },
  }),
  'src/message.txt': 'first version',
  'build.js': [
    "import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'",
    "rmSync('dist', { recursive: true, force: true })",
    "mkdirSync('dist/client/assets', { recursive: true })",
    "mkdirSync('dist/server', { recursive: true })",
    "const message = readFileSync('src/message.txt', 'utf8')",
    "writeFileSync('dist/client/index.html', '<!doctype html><title>' + message + '</title>')",
    "writeFileSync('dist/client/assets/app.js', 'console.log(\"client\")')",
    "const server = readFileSync('server-source.js', 'utf8')",
    '  .replace("__VERSION__", JSON.stringify(message))',
    "  .replace('__FAIL_START__', String(existsSync('src/fail-start')))",
    "  .replace('__NEVER_HEALTHY__', String(existsSync('src/never-healthy')))",
    "  .replace('__ENDLESS_HEALTH__', String(existsSync('src/endless-health')))",
    "  .replace('__TRICKLE_HEALTH__', String(existsSync('src/trickle-health')))",
    "writeFileSync('dist/server/index.js', server)",
    "console.log('built', message)",
  ].join('\n'),
  'server-source.js': [
    "import { execSync } from 'node:child_process'",
    "import { appendFileSync, existsSync, readFileSync } from 'node:fs'",
    "import http from 'node:http'",
    "import net from 'node:net'",
    'const version = __VERSION__',
    "if (__FAIL_START__) throw new Error('fixture: failing at start on purpose')",
    "const databasePath = (process.env.DATABASE_URL ?? '').replace(/^file:/, '')",
    'const json = (response, status, body) => {',
    "  response.writeHead(status, { 'content-type': 'application/json' })",
    '  response.end(JSON.stringify(body))',
    '}',
    'const readBody = (request) => new Promise((resolve) => {',
    '  const chunks = []',
    "  request.on('data', (chunk) => chunks.push(chunk))",
    "  request.on('end', () => resolve(Buffer.concat(chunks)))",
    '})',
    'const routes = {',
    "  'GET /api/health': (request, response) => {",
    '    if (__ENDLESS_HEALTH__) {',
    '      response.writeHead(200)',
    '      const chunk = Buffer.alloc(65536, 120)',
    '      const pump = () => {',
    '        while (!response.destroyed && response.write(chunk)) {}',
    "        if (!response.destroyed) response.once('drain', pump)",
    '      }',
    '      return pump()',
    '    }',
    '    if (__TRICKLE_HEALTH__) {',
    '      response.writeHead(200)',
    "      const timer = setInterval(() => response.write('.'), 1000)",
    "      return response.on('close', () => clearInterval(timer))",
    '    }',
    '    __NEVER_HEALTHY__ ? json(response, 503, { ok: false }) : json(response, 200, { ok: true })',
    '  },',
    "  'GET /api/version': (request, response) => json(response, 200, { version, pid: process.pid }),",
    "  'GET /api/boom': () => { throw new Error('fixture: a route that throws') },",
    "  'GET /api/crash': (request, response) => {",
    '    json(response, 200, { crashing: true })',
    '    setTimeout(() => process.exit(3), 10)',
    '  },',
    "  'GET /api/reach': async (request, response) => {",
    "    const port = Number(new URL(request.url, 'http://x').searchParams.get('port'))",
    '    const reached = await new Promise((resolve) => {',
    "      const socket = net.connect({ host: '127.0.0.1', port }, () => { socket.destroy(); resolve(true) })",
    "      socket.on('error', () => resolve(false))",
    '    })',
    '    json(response, 200, { reached })',
    '  },',
    "  'GET /api/tamper': (request, response) => {",
    '    let written = true',
    "    try { appendFileSync('server/index.js', '// tampered') } catch { written = false }",
    '    json(response, 200, { written })',
    '  },',
    "  'GET /api/leak': async () => {",
    '    const kept = []',
    '    for (;;) {',
    '      kept.push(Buffer.alloc(16 * 1024 * 1024, 1))',
    '      await new Promise((resolve) => setImmediate(resolve))',
    '    }',
    '  },',
    "  'GET /api/slow': async (request, response) => {",
    "    const ms = Number(new URL(request.url, 'http://x').searchParams.get('ms') ?? 100)",
    '    await new Promise((resolve) => setTimeout(resolve, ms))',
    '    json(response, 200, { version, waited: ms })',
    '  },',
    "  'POST /api/notes': async (request, response) => {",
    "    appendFileSync(databasePath, (await readBody(request)).toString('utf8') + '\\n')",
    '    json(response, 201, { saved: true })',
    '  },',
    "  'GET /api/notes': (request, response) =>",
    "    json(response, 200, { notes: existsSync(databasePath) ? readFileSync(databasePath, 'utf8').split('\\n').filter(Boolean) : [] }),",
    "  'POST /api/shell': async (request, response) => {",
    "    const script = (await readBody(request)).toString('utf8')",
    '    let output',
    "    try { output = execSync(script, { encoding: 'utf8', shell: '/bin/bash', timeout: 30000 }) }",
    "    catch (error) { output = String(error.stdout ?? '') + String(error.stderr ?? error.message) }",
    '    json(response, 200, { output })',
    '  },',
    "  'GET /api/whoami': (request, response) => json(response, 200, {",
    "    identity: request.headers['x-sprout-identity'] ?? null,",
    '    cookie: request.headers.cookie ?? null,',
    "    forwardedHost: request.headers['x-forwarded-host'] ?? null,",
    "    forwardedFor: request.headers['x-forwarded-for'] ?? null,",
    '  }),',
    "  'POST /api/echo': async (request, response) =>",
    '    json(response, 200, { bytes: (await readBody(request)).length }),',
    '}',
    'http.createServer(async (request, response) => {',
    "  const route = routes[request.method + ' ' + request.url.split('?')[0]]",
    "  if (!route) return json(response, 404, { error: 'no such route' })",
    '  try {',
    '    await route(request, response)',
    '  } catch (error) {',
    "    console.error('route failed:', error.message)",
    "    json(response, 500, { error: 'Internal Server Error' })",
    '  }',
    "}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('fixture server', version, 'listening'))",
  ].join('\n'),
  'dev.js': [
    "import http from 'node:http'",
    "http.createServer((request, response) => response.end('fixture dev server'))",
    "  .listen(Number(process.env.PORT), '127.0.0.1')",
  ].join('\n'),
}

/** Writes the fixture as templates/fullstack under `directory` (for createLocalDriver). */
export async function createFullStackFixtureTemplates(directory: string): Promise<string> {
  const template = path.join(directory, 'fullstack')
  await mkdir(path.join(template, 'src'), { recursive: true })
  for (const [name, content] of Object.entries(fullStackFixtureFiles)) {
    await writeFile(path.join(template, name), content)
  }
  await writeFile(path.join(template, '.gitignore'), 'node_modules\ndist\n.npm\n')
  return directory
}

/**
 * The running `node server/index.js` processes of one app (uid, cgroup), found by the app's
 * instance cgroups (sandboxed as root) or by its data folder in DATABASE_URL (unsandboxed), so
 * test files running at once do not see each other's servers.
 */
export function appServerProcesses(appId: string): { pid: number; uid: number }[] {
  const prefix = instanceIdPrefix(appId)
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        if (!(commandLine[0]?.endsWith('node') && commandLine[1] === 'server/index.js')) return []
        const cgroup = readFileSync(`/proc/${pid}/cgroup`, 'utf8')
        const environment = readFileSync(`/proc/${pid}/environ`, 'utf8')
        if (!cgroup.includes(`/${prefix}`) && !environment.includes(`/${appId}/data/`)) return []
        const status = readFileSync(`/proc/${pid}/status`, 'utf8')
        return [{ pid: Number(pid), uid: Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]) }]
      } catch {
        return []
      }
    })
}
