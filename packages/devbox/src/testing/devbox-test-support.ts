import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { bubblewrapWorks, findBubblewrap } from '../drivers/local/sandbox.ts'

export const templatesDir = path.resolve(import.meta.dirname, '../../../../templates')

/** Stable across runs, so the template's npm install happens once per machine, not per run. */
export const testCacheDir = path.join(os.tmpdir(), 'sprout-devbox-test-cache')

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

export async function answersHttp(url: string | undefined): Promise<boolean> {
  if (!url) return false
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) })
    await response.body?.cancel()
    return true
  } catch {
    return false
  }
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
