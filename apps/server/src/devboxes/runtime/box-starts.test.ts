// Issue 29: fifty new apps at once on 2 cores; 49 previews never started and none came back.
// Box starts wait their turn (the builder is told its place), a failed start is tried again, and
// a failed box starts again when its builder is opened again (docs/architecture/devbox.md
// "Starts at once"). Real server, real local driver, real boxes.
import { rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { devboxes } from '@sprout/db/schema/devboxes.ts'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../../testing/app-harness.ts'
import { useOrganizationHarness } from '../../testing/organization-harness.ts'

type Readiness = { ready: boolean; error?: string; queue_position?: number }

async function waitFor<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

describe('dev box starts in a burst', { timeout: 300_000 }, () => {
  const setup = useOrganizationHarness({
    environment: { DEVBOX_POOL_TARGET: '0', DEVBOX_MAX_STARTS: '1' },
    organizationName: 'Burst org',
  })
  const readiness = async (id: string) =>
    (await (await setup.request(`/api/applications/${id}/editor-ready`)).json()) as Readiness
  const untilReady = (id: string) =>
    waitFor(async () => ((await readiness(id)).ready ? true : undefined), `${id} to be ready`)

  it('admits one start at a time here, telling each waiting builder how many are ahead', async () => {
    const ids = [
      await setup.createApplication('first'),
      await setup.createApplication('second'),
      await setup.createApplication('third'),
    ]
    const third = await readiness(ids[2] ?? '')
    expect(third.ready).toBe(false)
    // A box start takes seconds; creating three apps takes a fraction of one.
    expect(third.queue_position).toBeGreaterThanOrEqual(0)
    expect(third.queue_position).toBeLessThanOrEqual(1)
    // It only moves up, and every one of them starts.
    let last = third.queue_position ?? 0
    await waitFor(async () => {
      const answer = await readiness(ids[2] ?? '')
      if (answer.queue_position !== undefined) {
        expect(answer.queue_position).toBeLessThanOrEqual(last)
        last = answer.queue_position
      }
      return answer.ready || answer.error ? answer : undefined
    }, 'the third app to start')
    for (const id of ids) await untilReady(id)
    expect((await readiness(ids[2] ?? '')).error).toBeUndefined()
  })

  it('tries a failed start again, and starts a failed box again when its builder is opened again', async () => {
    // Every start fails while the workspaces folder is a file (as a full disk would make it fail).
    const workspaces = path.join(setup.harness.config.dataDir, 'devboxes', 'workspaces')
    await rename(workspaces, `${workspaces}.away`)
    await writeFile(workspaces, 'not a folder')
    try {
      const createdAt = Date.now()
      const id = await setup.createApplication('fails to start')
      const failed = await waitFor(async () => {
        const answer = await readiness(id)
        return answer.error ? answer : undefined
      }, 'the start to fail')
      expect(failed.error).toBe('The dev box could not be started.')
      // Three tries, 2 s and then 4 s apart: not given up at the first failure.
      expect(Date.now() - createdAt).toBeGreaterThanOrEqual(5_000)

      // The builder stopped asking; the disk has room again; the builder is opened again.
      await rm(workspaces)
      await rename(`${workspaces}.away`, workspaces)
      const reopened = await readiness(id)
      expect(reopened.ready).toBe(false)
      expect(reopened.error).toBeUndefined()
      await untilReady(id)
      expect(setup.harness.devboxes.devServerStatus(id)).toBe('running')
    } finally {
      await rm(workspaces, { force: true }).catch(() => undefined)
      await rename(`${workspaces}.away`, workspaces).catch(() => undefined)
    }
  })
})

describe('a server stopping in a burst', { timeout: 300_000 }, () => {
  it('does not start the boxes still waiting: they stay recorded for the next start-up', async () => {
    const harness = await createTestApp({ DEVBOX_POOL_TARGET: '0', DEVBOX_MAX_STARTS: '1' })
    try {
      const owner = await harness.signUp()
      const organizationId = await harness.createOrganization(owner)
      const ids: string[] = []
      for (const prompt of ['one', 'two', 'three', 'four']) {
        const created = await harness.request('/api/applications', {
          method: 'POST',
          user: owner,
          headers: { 'organization-id': organizationId },
          body: JSON.stringify({ initial_prompt: prompt, model: 'demo' }),
        })
        ids.push(((await created.json()) as { id: string }).id)
      }
      // The last one waits behind the others (a box start takes seconds).
      expect(harness.devboxes.queuePosition(ids[3] ?? '')).toBeGreaterThanOrEqual(0)
      await harness.devboxes.stop()
      const rows = await harness.database.db.select().from(devboxes)
      const last = rows.find((row) => row.applicationId === ids[3])
      expect(last?.status).toBe('provisioning')
    } finally {
      await harness.close()
    }
  })
})
