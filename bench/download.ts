// Download (docs/product/versions.md "Download"), in process on PGlite with a real dev box of the
// starter: p50/p95 of the first byte of GET .../download, and the whole zip's time and size.

import { readyBenchApplication } from './lib/ready-application.ts'
import { milliseconds, p50AndP95 } from './lib/stats.ts'

const requests = 30

export async function benchDownload(): Promise<Record<string, string>> {
  const { harness, applicationId, as } = await readyBenchApplication()
  try {
    const url = `/api/applications/${applicationId}/download`
    const firstBytes: number[] = []
    const wholes: number[] = []
    let size = 0
    for (let index = 0; index < requests; index++) {
      const started = performance.now()
      const answer = await as(url)
      if (answer.status !== 200 || !answer.body)
        throw new Error(`download answered ${answer.status}`)
      const reader = answer.body.getReader()
      let bytes = 0
      let first = true
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) break
        if (first) firstBytes.push(performance.now() - started)
        first = false
        bytes += chunk.value.byteLength
      }
      wholes.push(performance.now() - started)
      size = bytes
    }
    return {
      [`starter zip: first byte (${requests} requests): p50 / p95 / max`]: `${p50AndP95(firstBytes)} / ${milliseconds(Math.max(...firstBytes))}`,
      [`starter zip: whole zip (${requests} requests): p50 / p95`]: p50AndP95(wholes),
      'starter zip: size': `${(size / 1024).toFixed(0)} KiB`,
    }
  } finally {
    await harness.close()
  }
}
