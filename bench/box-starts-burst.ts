// Fifty people creating an app at once (issue 29; docs/architecture/devbox.md "Starts at once"):
// a real server process on loopback, each simulated user creates an app at the same moment, asks
// editor-ready once a second as the builder does (asking again after a reported failure, as
// opening the builder again would), then loads its preview page until it answers. Bounded: users
// whose preview has not answered by the deadline are counted, not waited for.
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { findFreePort } from '../packages/devbox/src/drivers/local/processes/free-port.ts'
import { removeWithMounts } from '../packages/devbox/src/drivers/local/sandbox/box-disk.ts'
import { defaultStartSlots } from '../packages/devbox/src/start-queue.ts'
import { apiCaller } from './lib/api-caller.ts'
import { get } from './lib/product-server.ts'
import { startServerProcess } from './lib/server-process.ts'
import { milliseconds, quantile } from './lib/stats.ts'

const users = Number(process.env.BENCH_BURST_USERS ?? 50)
/** The whole burst's budget: the bench ends within ~10 minutes whatever happens. */
const deadlineMs = Number(process.env.BENCH_BURST_DEADLINE_MS ?? 8 * 60_000)
const pollMs = 1_000

type Outcome = {
  shownMs: number | undefined
  failuresReported: number
  largestPosition: number | undefined
  problem?: string
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function benchBoxStartsBurst(): Promise<Record<string, string>> {
  const port = await findFreePort()
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-burst-'))
  const server = await startServerProcess({
    entry: 'scripts/start.ts',
    port,
    environment: {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      SPROUT_SKIP_BUILD: '1',
      DEVBOX_POOL_TARGET: '2',
      DEVBOX_CACHE_DIR: path.join(os.tmpdir(), 'sprout-devbox-test-cache'),
      AUTH_RATE_LIMIT: '1000/60',
      // The first user reads the pool's stats, an admin call (docs/product/auth.md "The first admin").
      ADMIN_EMAILS: 'burst-0@example.com',
    },
    timeoutMs: 120_000,
  })
  const call = apiCaller(port)
  try {
    const tokens: string[] = []
    for (let index = 0; index < users; index++) {
      const response = await call('/api/auth/sign-up/email', {
        method: 'POST',
        body: JSON.stringify({
          email: `burst-${index}@example.com`,
          password: 'correct-horse-battery',
          name: `user ${index}`,
        }),
      })
      tokens.push(response.headers.get('set-auth-token') ?? '')
    }
    // A server that has been up: its pool is full before the burst.
    await waitForFullPool(call, tokens[0] ?? '')
    const started = performance.now()
    const deadline = started + deadlineMs
    const outcomes = await Promise.all(
      tokens.map((token) => oneUser(call, port, token, started, deadline)),
    )
    const shown = outcomes.flatMap((outcome) => outcome.shownMs ?? [])
    const problems = outcomes.flatMap((outcome) => outcome.problem ?? [])
    const positions = outcomes.flatMap((outcome) => outcome.largestPosition ?? [])
    return {
      'users creating an app at the same moment': String(users),
      'box starts at once (DEVBOX_MAX_STARTS unset: one per CPU)': String(defaultStartSlots()),
      'previews shown': `${shown.length} of ${users}${
        problems.length > 0 ? ` (not shown: ${[...new Set(problems)].join('; ')})` : ''
      }`,
      [`time until the ${ordinal(users)} preview answers`]:
        shown.length === users
          ? milliseconds(Math.max(...shown))
          : `not within ${milliseconds(deadlineMs)}`,
      // Over all the users: one not shown by the deadline waited longer than it.
      'wait from create to preview page over all users, p50 / p95': [0.5, 0.95]
        .map((q) => {
          const value = quantile(
            outcomes.map((outcome) => outcome.shownMs ?? Number.POSITIVE_INFINITY),
            q,
          )
          return Number.isFinite(value) ? milliseconds(value) : `> ${milliseconds(deadlineMs)}`
        })
        .join(' / '),
      'wait of the previews shown, p50 / p95 / max': `${milliseconds(
        quantile(shown, 0.5),
      )} / ${milliseconds(quantile(shown, 0.95))} / ${milliseconds(Math.max(...shown))}`,
      'failures reported to a builder (each then asked again)': String(
        outcomes.reduce((sum, outcome) => sum + outcome.failuresReported, 0),
      ),
      'largest queue position shown': positions.length > 0 ? String(Math.max(...positions)) : '—',
    }
  } finally {
    await server.stop()
    await removeWithMounts(dataDir)
  }
}

async function waitForFullPool(call: ReturnType<typeof apiCaller>, token: string) {
  const giveUp = Date.now() + 180_000
  while (Date.now() < giveUp) {
    const stats = (await (await call('/api/admin/pool/stats', { token })).json()) as {
      global: { provisioning: number }
      packs: Record<string, { ready: number; target: number }>
    }
    const full = Object.values(stats.packs).every((pack) => pack.ready >= pack.target)
    if (full && stats.global.provisioning === 0) return
    await pause(500)
  }
  throw new Error('The dev-box pool did not fill within 3 minutes')
}

async function oneUser(
  call: ReturnType<typeof apiCaller>,
  port: number,
  token: string,
  started: number,
  deadline: number,
): Promise<Outcome> {
  const outcome: Outcome = { shownMs: undefined, failuresReported: 0, largestPosition: undefined }
  try {
    const created = await call('/api/applications', {
      method: 'POST',
      token,
      body: JSON.stringify({ initial_prompt: 'A todo list', model: 'demo' }),
    })
    if (created.status !== 201) throw new Error(`create answered ${created.status}`)
    const { id } = (await created.json()) as { id: string }
    for (;;) {
      if (performance.now() > deadline) throw new Error('editor not ready by the deadline')
      const answer = (await (
        await call(`/api/applications/${id}/editor-ready`, { token })
      ).json()) as { ready: boolean; error?: string; queue_position?: number }
      if (answer.ready) break
      if (answer.error) outcome.failuresReported += 1
      if (answer.queue_position !== undefined) {
        outcome.largestPosition = Math.max(outcome.largestPosition ?? 0, answer.queue_position)
      }
      await pause(pollMs)
    }
    const details = (await (await call(`/api/applications/${id}`, { token })).json()) as {
      preview_url: string
    }
    const host = new URL(details.preview_url).host
    const issued = await call('/api/org/devbox-token', {
      method: 'POST',
      token,
      body: JSON.stringify({ devbox_url: details.preview_url }),
    })
    const { token: handOff } = (await issued.json()) as { token: string }
    const callback = await get(
      port,
      host,
      `/__sprout/auth/callback?token=${encodeURIComponent(handOff)}&return=%2F`,
    )
    const cookie = callback.setCookie[0]?.split(';')[0] ?? ''
    for (;;) {
      if (performance.now() > deadline) throw new Error('preview not answering by the deadline')
      const page = await get(port, host, '/', { cookie, accept: 'text/html' })
      if (page.status === 200 && page.body.includes('<div id="root">')) break
      await pause(pollMs)
    }
    outcome.shownMs = performance.now() - started
  } catch (error) {
    outcome.problem = error instanceof Error ? error.message : String(error)
  }
  return outcome
}

function ordinal(count: number) {
  const last = count % 10
  const suffix =
    count % 100 >= 11 && count % 100 <= 13
      ? 'th'
      : last === 1
        ? 'st'
        : last === 2
          ? 'nd'
          : last === 3
            ? 'rd'
            : 'th'
  return `${count}${suffix}`
}
