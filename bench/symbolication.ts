// Symbolication (decision 016): the fullstack starter built as a deploy, then 10-frame events
// mapped back (first event of a deploy, then the next ones); also the reporter bundle's size and
// build time and what its injection adds through the preview proxy.
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createDeployId } from '@sprout/devbox/deploy-id.ts'
import { build } from 'vite'
import { proxyHttp } from '../apps/server/src/devboxes/preview-host/proxy.ts'
import { reporterBundle } from '../apps/server/src/error-monitoring/reporter/reporter-bundle.ts'
import { reporterScriptTag } from '../apps/server/src/error-monitoring/reporter/service.ts'
import {
  createSymbolicator,
  type StackFrame,
} from '../apps/server/src/error-monitoring/symbolicate.ts'
import { quantile } from './lib/stats.ts'

const starter = path.resolve(import.meta.dirname, '../templates/fullstack')
const events = 2000
const framesPerEvent = 10

/** Median and p95 ms of a page fetched through the preview proxy, with or without the tag. */
async function pageThroughProxy(inject: boolean): Promise<string> {
  const page = await readFile(path.join(starter, 'index.html'))
  const upstream = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': page.length })
    response.end(page)
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const target = { host: '127.0.0.1', port: (upstream.address() as AddressInfo).port }
  const tag = reporterScriptTag({ dsn: 'http://0123@localhost:3000/1', environment: 'preview' })
  const proxy = http.createServer((request, response) =>
    proxyHttp(request, response, target, inject ? { injectIntoPages: tag } : {}),
  )
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`
  const times: number[] = []
  for (let index = 0; index < 2000; index += 1) {
    const started = performance.now()
    await (await fetch(url)).text()
    times.push(performance.now() - started)
  }
  proxy.close()
  upstream.close()
  return `median ${quantile(times, 0.5).toFixed(2)} ms, p95 ${quantile(times, 0.95).toFixed(2)} ms`
}

export async function benchSymbolication(): Promise<Record<string, string>> {
  const bundleStarted = performance.now()
  const bundle = await reporterBundle()
  const bundleMs = performance.now() - bundleStarted
  const folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-symbolicate-'))
  try {
    const outDir = path.join(folder, 'dist')
    await build({
      root: starter,
      logLevel: 'silent',
      configFile: false,
      build: { outDir, sourcemap: 'hidden', emptyOutDir: true },
    })
    const deploysDir = path.join(folder, 'deploys')
    await cp(outDir, path.join(deploysDir, 'app-1', createDeployId(), 'client'), {
      recursive: true,
    })
    const assets = await readdir(path.join(outDir, 'assets'))
    const script = assets.find((name) => name.endsWith('.js')) ?? ''
    const code = await readFile(path.join(outDir, 'assets', script), 'utf8')
    const mapBytes = (await readFile(path.join(outDir, 'assets', `${script}.map`))).length
    // Frames spread over the whole minified file, as React's and the app's would be.
    const frames: StackFrame[] = Array.from({ length: framesPerEvent }, (_, index) => ({
      function: 'x',
      path: `https://app.apps.localhost/assets/${script}`,
      line: 1,
      column: Math.floor(((index + 0.5) / framesPerEvent) * code.length),
      inApp: true,
    }))
    const firstTimes: number[] = []
    for (let round = 0; round < 5; round += 1) {
      const symbolicate = createSymbolicator(deploysDir)
      const started = performance.now()
      await symbolicate('app-1', frames)
      firstTimes.push(performance.now() - started)
    }
    const symbolicate = createSymbolicator(deploysDir)
    await symbolicate('app-1', frames)
    const times: number[] = []
    for (let index = 0; index < events; index += 1) {
      const started = performance.now()
      await symbolicate('app-1', frames)
      times.push(performance.now() - started)
    }
    return {
      'page through the preview proxy, plain': await pageThroughProxy(false),
      'page through the preview proxy, reporter injected': await pageThroughProxy(true),
      'reporter bundle (@sentry/browser + hooks, minified)': `${(bundle.code.length / 1024).toFixed(1)} KiB, ${(bundle.gzipped.length / 1024).toFixed(1)} KiB gzipped, built in ${bundleMs.toFixed(0)} ms`,
      'starter client': `${(code.length / 1024).toFixed(0)} KiB minified, source map ${(mapBytes / 1024).toFixed(0)} KiB`,
      'first event of a deploy (map read + parsed), 10 frames': `median ${quantile(firstTimes, 0.5).toFixed(1)} ms`,
      'each next event, 10 frames': `median ${quantile(times, 0.5).toFixed(3)} ms, p95 ${quantile(times, 0.95).toFixed(3)} ms`,
    }
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}
