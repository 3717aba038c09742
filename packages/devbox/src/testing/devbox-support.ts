import { type ChildProcess, execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { requestDevServer } from '../dev-server-request.ts'
import type { DevServerTarget } from '../devbox-driver.ts'
import { createLocalDriver, type LocalDriverOptions } from '../drivers/local/local-driver.ts'
import { createBoxExec } from '../drivers/local/processes/box-exec.ts'
import { bubblewrapWorks, findBubblewrap, type Sandbox } from '../drivers/local/sandbox/sandbox.ts'
import { silentLogger } from '../logger.ts'

export const templatesDir = path.resolve(import.meta.dirname, '../../../../templates')

/** Stable across runs, so the template's npm install happens once per machine, not per run. */
export const testCacheDir = path.join(os.tmpdir(), 'sprout-devbox-test-cache')

/** A local driver of the real templates and the shared dependency cache, that logs nothing. */
export function createTestDriver(options: Partial<LocalDriverOptions> & { rootDir: string }) {
  return createLocalDriver({
    templatesDir,
    cacheDir: testCacheDir,
    logger: silentLogger,
    ...options,
  })
}

/** The process group id a test's child process prints on its stdout as `GROUP <id>`. */
export function printedGroupId(child: ChildProcess): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      const match = /GROUP (\d+)/.exec(text)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)))
  })
}

const bubblewrapPath = findBubblewrap()
export const hasBubblewrap = bubblewrapPath !== undefined && bubblewrapWorks(bubblewrapPath)

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`)
    await delay(50)
  }
}

export { devServerAnswers as answersHttp } from '../dev-server-request.ts'

/** The text of one page of a box's dev server, through whatever path the server uses. */
export async function devServerText(
  target: DevServerTarget | undefined,
  requestPath = '/',
  headers: Record<string, string> = {},
): Promise<string> {
  return (await requestDevServer(target, requestPath, { headers })).body
}

/**
 * A tiny stand-in for templates/vite-react without dependencies: `npm run dev` serves a page on
 * PORT, `npm run build` writes dist/ from src/message.txt; it fails while src/broken exists, takes
 * 1.5 s while src/slow exists and adds a symbolic link dist/leak while src/link exists.
 */
export async function createFakeTemplates(directory: string): Promise<string> {
  const template = path.join(directory, 'vite-react')
  await mkdir(path.join(template, 'src'), { recursive: true })
  const files: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'fake-app',
      private: true,
      type: 'module',
      scripts: { dev: 'node server.js', build: 'node build.js' },
    }),
    '.gitignore': 'node_modules\ndist\n.npm\n',
    'src/message.txt': 'first version',
    'server.js': [
      "import http from 'node:http'",
      "http.createServer((request, response) => response.end('fake dev server'))",
      "  .listen(Number(process.env.PORT), '127.0.0.1')",
    ].join('\n'),
    'build.js': [
      "import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'",
      "if (existsSync('src/broken')) { console.error('src/broken: syntax error on line 1'); process.exit(1) }",
      "if (existsSync('src/slow')) await new Promise((resolve) => setTimeout(resolve, 1500))",
      "rmSync('dist', { recursive: true, force: true })",
      "mkdirSync('dist/assets', { recursive: true })",
      "if (existsSync('src/link')) symlinkSync('/etc/hostname', 'dist/leak')",
      "const message = readFileSync('src/message.txt', 'utf8')",
      "writeFileSync('dist/index.html', '<!doctype html><title>' + message + '</title>')",
      "writeFileSync('dist/assets/app.js', 'console.log(\"built\")')",
      "console.log('built', message)",
    ].join('\n'),
  }
  for (const [name, content] of Object.entries(files)) {
    await writeFile(path.join(template, name), content)
  }
  return directory
}

/**
 * Runs commands in `workspacePath` confined as a box of `sandbox` (its own network, uid and
 * limits where this machine allows them); `release` kills what is left and frees the box.
 */
export function createTestBoxExec(sandbox: Sandbox, workspacePath: string, boxId = 'test-box') {
  const boxSandbox = sandbox.forBox({ boxId, workspacePath })
  if (boxSandbox.owner) {
    execFileSync('chown', ['-R', `${boxSandbox.owner.uid}:${boxSandbox.owner.gid}`, workspacePath])
  }
  const stopAll = new AbortController()
  return {
    exec: createBoxExec({
      workspacePath,
      sandbox: boxSandbox,
      stopAll: stopAll.signal,
      diskLimitMb: sandbox.limits.diskMb,
    }),
    boxSandbox,
    release: async () => {
      stopAll.abort()
      await boxSandbox.release()
    },
  }
}
