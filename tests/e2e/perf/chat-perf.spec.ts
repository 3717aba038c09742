import { writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { expect, type Page, test } from '@playwright/test'
import type { StreamChunk } from '../../../packages/protocol/src/stream/stream-chunk.ts'
import type { StreamEnvelope } from '../../../packages/protocol/src/stream/stream-envelope.ts'
import { BuilderPage } from '../pages/builder-page.ts'
import { ChatPanel } from '../pages/chat-panel.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from '../support/applications.ts'
import { signUpNewUser } from '../support/session.ts'

// PERF=1 npx playwright test tests/e2e/perf — prints the builder chat's figures:
// opening a 2,000-block conversation, the main-thread work per streamed delta at that size,
// and the JS the builder route loads (gzip).
test.skip(!process.env.PERF, 'Set PERF=1 to measure')
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 180_000 })
// The trace recorder snapshots the DOM around every action: not part of what is measured.
test.use({ trace: 'off' })

const TURNS = 400 // 5 blocks each: user, reasoning, text, write_file, shell_exec
const DELTAS = 300

/** A conversation's history as the server replays it (deltas of a part merged into one). */
function history(turns: number): StreamEnvelope[] {
  const envelopes: StreamEnvelope[] = []
  const push = (chunk: StreamChunk, runId: string | null = 'run') =>
    envelopes.push({ seq: envelopes.length + 1, runId, chunk })
  const paragraph =
    'I updated the **header** and the `Card` component so that the layout works on small ' +
    'screens, then checked the build.\n\nNext I will look at the __footer__.'
  for (let turn = 0; turn < turns; turn++) {
    push(
      { type: 'data-user-message', data: { id: `m${turn}`, text: `Change number ${turn}` } },
      null,
    )
    push({ type: 'data-run', data: { runId: `r${turn}`, status: 'running' } })
    push({ type: 'start' })
    push({ type: 'reasoning-start', id: `r${turn}` })
    push({
      type: 'reasoning-delta',
      id: `r${turn}`,
      delta: `Thinking about change ${turn}. ${paragraph}`,
    })
    push({ type: 'reasoning-end', id: `r${turn}` })
    push({ type: 'text-start', id: `t${turn}` })
    push({ type: 'text-delta', id: `t${turn}`, delta: paragraph })
    push({ type: 'text-end', id: `t${turn}` })
    const write = `w${turn}`
    push({ type: 'tool-input-start', toolCallId: write, toolName: 'write_file' })
    push({
      type: 'tool-input-available',
      toolCallId: write,
      toolName: 'write_file',
      input: { path: `src/components/Card${turn}.tsx`, content: 'export const x = 1\n'.repeat(40) },
    })
    push({ type: 'tool-output-available', toolCallId: write, output: 'Wrote 40 lines.' })
    const shell = `s${turn}`
    push({ type: 'tool-input-start', toolCallId: shell, toolName: 'shell_exec' })
    push({
      type: 'tool-input-available',
      toolCallId: shell,
      toolName: 'shell_exec',
      input: { command: 'npm run build' },
    })
    push({
      type: 'tool-output-available',
      toolCallId: shell,
      output: 'built in 1.2s\n[exit code 0]',
    })
    push({ type: 'finish' })
    push({ type: 'data-run', data: { runId: `r${turn}`, status: 'finished' } })
  }
  return envelopes
}

/** Replaces EventSource with one the test feeds, so the page's own transport and store run. */
async function installFakeEventSource(page: Page) {
  await page.addInitScript(() => {
    type Fake = {
      url: string
      onopen: (() => void) | null
      onmessage: ((event: MessageEvent<string>) => void) | null
      onerror: (() => void) | null
      close: () => void
    }
    const sources: Fake[] = []
    ;(window as unknown as { __sources: Fake[] }).__sources = sources
    class FakeEventSource {
      url: string
      onopen: (() => void) | null = null
      onmessage: ((event: MessageEvent<string>) => void) | null = null
      onerror: (() => void) | null = null
      constructor(url: string) {
        this.url = url
        sources.push(this)
        setTimeout(() => this.onopen?.(), 0)
      }
      close() {}
    }
    ;(window as unknown as { EventSource: unknown }).EventSource = FakeEventSource
  })
}

test('builder chat: open a 2,000-block conversation, stream into it, route JS size', async ({
  page,
}) => {
  await signUpNewUser(page, 'Perf')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Perf'))
  const now = new Date().toISOString()
  await page.route(`**/api/demo/applications/${application.id}/conversations`, (route) =>
    route.fulfill({
      json: [
        {
          id: 'perf-conversation',
          title: 'A long conversation',
          created: now,
          updated: now,
          last_message_at: now,
          active_model: 'demo',
        },
      ],
    }),
  )
  await installFakeEventSource(page)
  const scripts = new Set<string>()
  page.on('response', (response) => {
    // The product's own scripts, not the preview frame's (the app being built).
    const isProduct = response.frame() === page.mainFrame()
    if (response.request().resourceType() === 'script' && isProduct) scripts.add(response.url())
  })

  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  const chat = new ChatPanel(page)
  await page.waitForFunction(() =>
    (window as unknown as { __sources: unknown[] }).__sources.some((source) =>
      (source as { url: string }).url.includes('perf-conversation'),
    ),
  )

  // PROFILE=prefix records the main thread: prefix-opening.cpuprofile, prefix-streaming.cpuprofile.
  const profiler = process.env.PROFILE ? await page.context().newCDPSession(page) : undefined
  const stopProfile = async (phase: string) => {
    if (!profiler) return
    const { profile } = await profiler.send('Profiler.stop')
    writeFileSync(`${process.env.PROFILE}-${phase}.cpuprofile`, JSON.stringify(profile))
  }
  await profiler?.send('Profiler.enable')
  await profiler?.send('Profiler.start')
  // Opening: the whole history arrives, as from the server's replay, in one burst.
  const envelopes = history(TURNS).map((envelope) => JSON.stringify(envelope))
  const opening = await page.evaluate(async (datas) => {
    const source = (
      window as unknown as {
        __sources: { url: string; onmessage: (event: MessageEvent<string>) => void }[]
      }
    ).__sources.findLast((candidate) => candidate.url.includes('perf-conversation'))
    if (!source) throw new Error('not listening')
    const start = performance.now()
    for (const data of datas) source.onmessage(new MessageEvent('message', { data }))
    const delivered = performance.now()
    await new Promise<void>((resolve) => {
      const check = () => {
        const log = document.querySelector('[role="log"]')
        if ((log?.textContent ?? '').includes('Change number 399')) resolve()
        else requestAnimationFrame(check)
      }
      check()
    })
    const rendered = performance.now()
    // Interactive: the next task after the frame that showed it runs without delay.
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    const interactive = performance.now()
    return {
      envelopes: datas.length,
      deliverMs: delivered - start,
      renderedMs: rendered - start,
      interactiveMs: interactive - start,
      domNodes: document.getElementsByTagName('*').length,
    }
  }, envelopes)
  await expect(chat.userMessages).toHaveCount(TURNS)
  const blockCount = await chat.transcript
    .locator(
      '[data-testid="user-message"],[data-testid="agent-message"],[data-testid="reasoning"],[data-testid="tool-call"]',
    )
    .count()

  await stopProfile('opening')
  await profiler?.send('Profiler.start')
  // Streaming: one text delta at a time into a running turn at the end of that conversation.
  const streaming = await page.evaluate(
    async ({ firstSeq, count }) => {
      const source = (
        window as unknown as {
          __sources: { url: string; onmessage: (event: MessageEvent<string>) => void }[]
        }
      ).__sources.findLast((candidate) => candidate.url.includes('perf-conversation'))
      if (!source) throw new Error('not listening')
      let seq = firstSeq
      const send = (chunk: unknown) =>
        source.onmessage(
          new MessageEvent('message', {
            data: JSON.stringify({ seq: seq++, runId: 'live', chunk }),
          }),
        )
      const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve))
      send({ type: 'data-user-message', data: { id: 'live', text: 'One more change' } })
      send({ type: 'data-run', data: { runId: 'live', status: 'running' } })
      send({ type: 'start' })
      send({ type: 'text-start', id: 'live' })
      await nextFrame()
      await nextFrame()
      const samples: number[] = []
      const scriptSamples: number[] = []
      const layoutSamples: number[] = []
      for (let index = 0; index < count; index++) {
        await nextFrame()
        // Delivered right after a frame; the store applies it in the next one, where React
        // commits. A callback queued after the store's measures to the end of that work,
        // including the style and layout it causes.
        const deliveredAt = performance.now()
        send({ type: 'text-delta', id: 'live', delta: `word${index} ` })
        const parseMs = performance.now() - deliveredAt
        const frameWork = await new Promise<number>((resolve) =>
          requestAnimationFrame((frameStart) => {
            const scriptEnd = performance.now()
            const log = document.querySelector('[role="log"]') as HTMLElement
            void log.offsetHeight
            layoutSamples.push(performance.now() - scriptEnd)
            scriptSamples.push(scriptEnd - frameStart)
            resolve(performance.now() - frameStart)
          }),
        )
        samples.push(parseMs + frameWork)
      }
      const p95 = (values: number[]) => {
        const sorted = [...values].sort((first, second) => first - second)
        return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))] ?? 0
      }
      samples.sort((first, second) => first - second)
      const at = (quantile: number) =>
        samples[Math.min(samples.length - 1, Math.floor(quantile * samples.length))] ?? 0
      return {
        deltas: count,
        p50: at(0.5),
        p95: at(0.95),
        max: samples.at(-1) ?? 0,
        scriptP95: p95(scriptSamples),
        layoutP95: p95(layoutSamples),
      }
    },
    { firstSeq: envelopes.length + 1, count: DELTAS },
  )
  await stopProfile('streaming')
  await expect(chat.agentMessages.last()).toContainText(`word${DELTAS - 1}`)

  // The builder route's JavaScript, gzip-compressed as Vite reports it.
  let totalGzip = 0
  let routeGzip = 0
  for (const url of scripts) {
    const body = await (await page.request.get(url)).body()
    const size = gzipSync(body).length
    totalGzip += size
    if (url.includes('applications._id.edit')) routeGzip += size
  }

  const figures = {
    opening: { blocks: blockCount, ...opening },
    streaming,
    javascript: {
      scripts: scripts.size,
      totalGzipKb: Math.round(totalGzip / 102.4) / 10,
      routeChunkGzipKb: Math.round(routeGzip / 102.4) / 10,
    },
  }
  console.log(JSON.stringify(figures, null, 2))
  test.info().annotations.push({ type: 'figures', description: JSON.stringify(figures) })
  expect(blockCount).toBe(TURNS * 5)
})
