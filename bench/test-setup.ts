// What a server test suite's set-up costs (createTestApp on PGlite, a signed-up owner, an
// organization, an application whose dev box is ready, close), idle and with one core kept busy
// by another process, as CI on a loaded machine sees it.
import { spawn } from 'node:child_process'
import { createTestApp, waitForEditorReady } from '../apps/server/src/testing/app-harness.ts'

type Timings = Record<'app' | 'user' | 'organization' | 'application' | 'close', number>

async function setUpOnce(): Promise<Timings> {
  let mark = performance.now()
  const lap = () => {
    const now = performance.now()
    const elapsed = now - mark
    mark = now
    return elapsed
  }
  const harness = await createTestApp()
  const app = lap()
  const owner = await harness.signUp()
  const user = lap()
  const organizationId = await harness.createOrganization(owner)
  const organization = lap()
  const created = await harness.request('/api/applications', {
    method: 'POST',
    user: owner,
    headers: { 'organization-id': organizationId },
    body: JSON.stringify({ initial_prompt: 'A test app', model: 'demo' }),
  })
  const { id } = (await created.json()) as { id: string }
  await waitForEditorReady(harness, owner, organizationId, id)
  const application = lap()
  await harness.close()
  return { app, user, organization, application, close: lap() }
}

const median = (values: number[]) =>
  values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

async function measure(label: string, runs: number): Promise<Record<string, string>> {
  const all: Timings[] = []
  for (let run = 0; run < runs; run++) all.push(await setUpOnce())
  const figures: Record<string, string> = {}
  for (const step of Object.keys(all[0] ?? {}) as (keyof Timings)[]) {
    figures[`${label} ${step} (median of ${runs})`] =
      `${median(all.map((t) => t[step])).toFixed(0)} ms`
  }
  const totals = all.map((t) => Object.values(t).reduce((sum, value) => sum + value, 0))
  figures[`${label} total (median / max)`] =
    `${median(totals).toFixed(0)} / ${Math.max(...totals).toFixed(0)} ms`
  return figures
}

export async function benchTestSetup(): Promise<Record<string, string>> {
  await setUpOnce() // warms the template cache and the module graph
  const idle = await measure('idle', 5)
  const busy = spawn('sh', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore' })
  try {
    return { ...idle, ...(await measure('one core busy', 5)) }
  } finally {
    busy.kill('SIGKILL')
  }
}
