import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import vm from 'node:vm'
import { createDeployId } from '@sprout/devbox/deploy-id.ts'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSymbolicator, type StackFrame } from './symbolicate.ts'

const appSource = `import { helper } from './helper.ts'

export function explode(count: number) {
  const total = helper(count)
  if (total > 1) {
    throw new Error('Exploded ' + total + ' times')
  }
  return total
}

export function App() {
  return explode(2)
}
`

const origin = 'https://guest-book.apps.localhost'

/** V8's stack of an error as Sentry's frames: oldest first, 1-based columns. */
function framesOf(error: Error): StackFrame[] {
  return (error.stack ?? '')
    .split('\n')
    .map((line) => /at (?:(\S+) \()?(\S+?):(\d+):(\d+)\)?$/.exec(line.trim()))
    .filter((match) => match !== null)
    .map((match) => ({
      function: match[1] ?? '?',
      path: match[2] ?? '',
      line: Number(match[3]),
      column: Number(match[4]),
      inApp: true,
    }))
    .reverse()
}

describe('symbolication with the deploy’s hidden source maps', () => {
  let folder: string
  let deploysDir: string
  let bundleFile: string
  let bundlePath: string
  const appId = 'app-1'

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-symbolicate-'))
    const project = path.join(folder, 'project')
    await mkdir(path.join(project, 'src'), { recursive: true })
    await writeFile(path.join(project, 'src/App.tsx'), appSource)
    await writeFile(
      path.join(project, 'src/helper.ts'),
      'export function helper(value: number) {\n  return value * 1\n}\n',
    )
    await writeFile(
      path.join(project, 'src/main.tsx'),
      "import { App } from './App.tsx'\n;(globalThis as { run?: () => unknown }).run = App\n",
    )
    await writeFile(
      path.join(project, 'index.html'),
      '<!doctype html><html><head></head><body><script type="module" src="/src/main.tsx"></script></body></html>',
    )
    deploysDir = path.join(folder, 'deploys')
    const outDir = path.join(deploysDir, appId, createDeployId(), 'client')
    // The starter's client build: Vite's minifier, hidden source maps (templates/fullstack),
    // dist/client copied into the deploy as buildDeploy does.
    await build({
      root: project,
      logLevel: 'silent',
      configFile: false,
      build: { outDir: 'dist/client', sourcemap: 'hidden', modulePreload: false },
    })
    await cp(path.join(project, 'dist/client'), outDir, { recursive: true })
    const assets = await readdir(path.join(outDir, 'assets'))
    const script = assets.find((name) => name.endsWith('.js')) ?? ''
    expect(assets).toContain(`${script}.map`)
    bundlePath = `/assets/${script}`
    bundleFile = path.join(outDir, 'assets', script)
  }, 60_000)
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  const thrownInBrowser = async () => {
    const code = (await readFile(bundleFile, 'utf8')).replace(/^import.*$/gm, '')
    expect(code).not.toContain('sourceMappingURL')
    const context = vm.createContext({})
    vm.runInContext(code, context, { filename: `${origin}${bundlePath}` })
    try {
      vm.runInContext('run()', context, { filename: `${origin}/` })
    } catch (error) {
      return error as Error
    }
    throw new Error('the app did not throw')
  }

  it('turns a minified frame back into src/App.tsx, its function and line', async () => {
    const error = await thrownInBrowser()
    const frames = framesOf(error)
    const minified = frames.at(-1)
    expect(minified?.path).toBe(`${origin}${bundlePath}`)
    expect(minified?.line).toBe(1)
    const symbolicate = createSymbolicator(deploysDir)
    const started = performance.now()
    const mapped = await symbolicate(appId, frames)
    const firstMs = performance.now() - started
    expect(mapped.at(-1)).toEqual({
      function: 'explode',
      path: 'src/App.tsx',
      line: 6,
      column: expect.any(Number),
      inApp: true,
    })
    expect(mapped.at(-2)).toMatchObject({ function: 'App', path: 'src/App.tsx', line: 12 })
    // The page's own frame (no map) stays as it was.
    expect(mapped[0]).toEqual(frames[0])
    const again = performance.now()
    await symbolicate(appId, frames)
    console.log(
      `symbolication: first event ${firstMs.toFixed(1)} ms (map read and parsed), then ${(performance.now() - again).toFixed(2)} ms`,
    )
  })

  it('leaves frames of unknown scripts, other apps and odd paths alone', async () => {
    const symbolicate = createSymbolicator(deploysDir)
    const frames: StackFrame[] = [
      { function: 'a', path: `${origin}/assets/gone.js`, line: 1, column: 5, inApp: true },
      {
        function: 'b',
        path: `${origin}/assets/../../server/index.js`,
        line: 1,
        column: 1,
        inApp: true,
      },
      { function: 'c', path: `${origin}${bundlePath}`, line: 1, column: 1, inApp: true },
    ]
    expect(await symbolicate('other-app', frames)).toEqual(frames)
    expect(await symbolicate('../app-1', frames)).toEqual(frames)
    const mapped = await symbolicate(appId, frames)
    expect(mapped.slice(0, 2)).toEqual(frames.slice(0, 2))
  })
})
