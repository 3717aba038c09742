import { once } from 'node:events'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createServer, type ViteDevServer } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPreviewModuleReader } from './preview-modules.ts'
import { createSymbolicator, type PreviewModuleReader, type StackFrame } from './symbolicate.ts'

const appSource = `import { useState } from 'react'

type Props = { start: number }

export function explode(count: number) {
  throw new Error('Exploded ' + count + ' times')
}

export function App({ start }: Props) {
  const [count] = useState(start)
  return <button onClick={() => explode(count)}>Explode</button>
}
`

const previewOrigin = 'http://guest-book.preview.localhost:3000'

/**
 * docs/product/error-monitoring.md "Reporters": the preview's frames are mapped with the maps
 * Vite's dev server appends to each module, read from the app's running dev server.
 */
describe('symbolication of the preview’s frames', () => {
  let folder: string
  let vite: ViteDevServer
  let origin: string
  const requested: string[] = []
  const readFromVite: PreviewModuleReader = async (applicationId, pathAndQuery) => {
    requested.push(`${applicationId} ${pathAndQuery}`)
    const response = await fetch(`${origin}${pathAndQuery}`)
    return response.ok ? await response.text() : undefined
  }

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-preview-symbolicate-'))
    await mkdir(path.join(folder, 'src'), { recursive: true })
    await writeFile(path.join(folder, 'src/App.tsx'), appSource)
    // The app's dependencies, as a box has them: React for the JSX runtime Vite imports.
    await symlink(
      path.resolve(import.meta.dirname, '../../../../node_modules'),
      path.join(folder, 'node_modules'),
    )
    vite = await createServer({
      root: folder,
      configFile: false,
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1', hmr: false, ws: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    })
    await vite.listen()
    const address = vite.httpServer?.address()
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  }, 60_000)
  afterAll(async () => {
    await vite?.close()
    await rm(folder, { recursive: true, force: true })
  })

  /** Where the served (transformed) module throws: the frame a browser would report. */
  const thrownFrame = async (): Promise<StackFrame> => {
    const served = (await readFromVite('app-1', '/src/App.tsx')) ?? ''
    const lines = served.split('\n')
    const line = lines.findIndex((text) => text.includes('throw new Error('))
    expect(line).toBeGreaterThanOrEqual(0)
    const column = (lines[line] ?? '').indexOf('throw') + 1
    return {
      function: 'explode',
      path: `${previewOrigin}/src/App.tsx?t=1700000000000`,
      line: line + 1,
      column,
      inApp: true,
    }
  }

  it('maps a frame of /src/App.tsx?t=… back to src/App.tsx, its function and line', async () => {
    const frame = await thrownFrame()
    // The served module is not the file: Vite's transform moved the line.
    expect(frame.line).not.toBe(6)
    const symbolicate = createSymbolicator(path.join(folder, 'deploys'), readFromVite)
    requested.length = 0
    const started = performance.now()
    const [mapped] = await symbolicate('app-1', [frame])
    const firstMs = performance.now() - started
    expect(mapped).toEqual({
      function: 'explode',
      path: 'src/App.tsx',
      line: 6,
      column: 3,
      inApp: true,
    })
    expect(requested).toEqual(['app-1 /src/App.tsx?t=1700000000000'])
    // The map is kept a while: a second event of the same module reads nothing.
    const again = performance.now()
    await symbolicate('app-1', [frame])
    expect(requested).toHaveLength(1)
    console.log(
      `preview symbolication: first event ${firstMs.toFixed(1)} ms (module read from Vite, map parsed), then ${(performance.now() - again).toFixed(2)} ms`,
    )
  })

  it('never asks the dev server for dependencies, odd paths or other origins’ scripts', async () => {
    const symbolicate = createSymbolicator(path.join(folder, 'deploys'), readFromVite)
    requested.length = 0
    const frames: StackFrame[] = [
      {
        function: 'a',
        path: `${previewOrigin}/node_modules/.vite/deps/react.js?v=1`,
        line: 9,
        column: 1,
        inApp: false,
      },
      { function: 'b', path: `${previewOrigin}/@vite/client`, line: 1, column: 1, inApp: false },
      {
        function: 'c',
        path: `${previewOrigin}/src/../../etc/passwd.ts`,
        line: 1,
        column: 1,
        inApp: true,
      },
      { function: 'd', path: `${previewOrigin}/src/%2e%2e/x.ts`, line: 1, column: 1, inApp: true },
      { function: 'e', path: 'src/App.tsx', line: 1, column: 1, inApp: true },
    ]
    expect(await symbolicate('app-1', frames)).toEqual(frames)
    expect(requested).toEqual([])
  })

  it('reads at most 5 modules for one event, those nearest the throw', async () => {
    const symbolicate = createSymbolicator(path.join(folder, 'deploys'), readFromVite)
    requested.length = 0
    const frames: StackFrame[] = Array.from({ length: 8 }, (_, index) => ({
      function: `f${index}`,
      path: `${previewOrigin}/src/module-${index}.ts?t=${index}`,
      line: 1,
      column: 1,
      inApp: true,
    }))
    await symbolicate('app-1', frames)
    expect(requested.sort()).toEqual(
      [3, 4, 5, 6, 7].map((index) => `app-1 /src/module-${index}.ts?t=${index}`),
    )
  })

  it('leaves the frame as it was when the module has no map, is garbage, or cannot be read', async () => {
    const frame = await thrownFrame()
    const answers: (string | undefined | Error)[] = [
      'export const x = 1\n',
      '//# sourceMappingURL=data:application/json;base64,bm90IGpzb24=',
      undefined,
      new Error('The dev server did not answer in time'),
    ]
    for (const answer of answers) {
      const symbolicate = createSymbolicator(path.join(folder, 'deploys'), async () => {
        if (answer instanceof Error) throw answer
        return answer
      })
      expect(await symbolicate('app-1', [frame])).toEqual([frame])
    }
  })

  it('reads a module from the app’s dev server, never an endless or stuck one', async () => {
    const server = http.createServer((request, response) => {
      if (request.url === '/src/huge.ts') {
        const chunk = Buffer.alloc(1024 * 1024, 'a')
        const write = () => {
          while (response.write(chunk)) {
            if (response.writableLength > 64 * 1024 * 1024) return
          }
          response.once('drain', write)
        }
        write()
      } else if (request.url?.startsWith('/src/App.tsx')) {
        response.end(`export {}\n// ${request.url}`)
      }
      // Anything else: never answered.
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const port = (server.address() as AddressInfo).port
    try {
      const read = createPreviewModuleReader((applicationId) =>
        applicationId === 'app-1' ? { host: '127.0.0.1', port } : undefined,
      )
      expect(await read('app-1', '/src/App.tsx?t=5')).toBe('export {}\n// /src/App.tsx?t=5')
      // Another app's, or an app without a running preview: nothing is asked.
      expect(await read('app-2', '/src/App.tsx')).toBeUndefined()
      await expect(read('app-1', '/src/huge.ts')).rejects.toThrow('the answer is too large')
      await expect(read('app-1', '/src/stuck.ts')).rejects.toThrow('did not answer in time')
      const symbolicate = createSymbolicator(path.join(folder, 'deploys'), read)
      const stuck: StackFrame = {
        function: 'f',
        path: `${previewOrigin}/src/stuck.ts`,
        line: 1,
        column: 1,
        inApp: true,
      }
      expect(await symbolicate('app-1', [stuck])).toEqual([stuck])
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
