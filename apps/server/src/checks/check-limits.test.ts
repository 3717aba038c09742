import { randomUUID } from 'node:crypto'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { applications } from '@sprout/db/schema/applications.ts'
import { organization } from '@sprout/db/schema/auth.ts'
import type { Devbox, DevServerTarget, ExecResult } from '@sprout/devbox/devbox-driver.ts'
import { startHostileAppServer } from '@sprout/devbox/testing/hostile-app-server.ts'
import type { CheckPart, CheckReport } from '@sprout/protocol/api/checks.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../testing/database.ts'
import { checksSettled, runCheck } from './service.ts'

const passedCommand: ExecResult = {
  exitCode: 0,
  output: '',
  truncated: false,
  timedOut: false,
  aborted: false,
  durationMs: 0,
}

/** A box whose commands pass at once (or never end) and whose dev server is a real hostile one. */
function boxServing(
  target: DevServerTarget,
  options: { hangingCommands?: boolean; hangingStart?: boolean } = {},
): Devbox {
  const never = new Promise<never>(() => {})
  return {
    id: `hostile-${randomUUID()}`,
    packType: 'fullstack',
    workspacePath: '/nonexistent',
    files: {} as Devbox['files'],
    copyFolderOut: async () => {},
    exec: async () => (options.hangingCommands ? never : passedCommand),
    devServer: {
      start: async () => (options.hangingStart ? never : undefined),
      stop: async () => {},
      status: () => (options.hangingStart ? 'stopped' : 'running'),
      target: () => target,
      restarts: () => 0,
      logs: () => '',
    },
    checkpoint: async () => undefined,
  }
}

const part = (report: CheckReport, name: CheckPart['name']) =>
  report.parts.find((candidate) => candidate.name === name) as CheckPart

/**
 * Attack tests of a check against an app's server answering its health route without end or a
 * byte a second (docs/product/checks.md "The check", docs/security.md "Answers of an app's
 * server"): each part ends by its own limit and the check by its budget, the server stays up, and
 * Check now is free again afterwards.
 */
describe('a check against a hostile health route', { timeout: 60_000 }, () => {
  let database: DatabaseHandle
  let applicationId: string
  const escaped: unknown[] = []
  const onEscape = (error: unknown) => escaped.push(error)
  let endless: Awaited<ReturnType<typeof startHostileAppServer>>
  let trickle: Awaited<ReturnType<typeof startHostileAppServer>>

  const check = (box: Devbox, options: Partial<Parameters<typeof runCheck>[1]> = {}) =>
    runCheck(
      { db: database.db, box, applicationId },
      { trigger: 'manual', runId: null, ...options },
    )

  beforeAll(async () => {
    database = await createTestDatabase()
    const organizationId = randomUUID()
    await database.db.insert(organization).values({
      id: organizationId,
      name: 'Org',
      slug: `org-${organizationId.slice(0, 8)}`,
      createdAt: new Date(),
    })
    applicationId = randomUUID()
    await database.db.insert(applications).values({
      id: applicationId,
      organizationId,
      name: 'App',
      slug: `app-${applicationId.slice(0, 8)}`,
      initialPrompt: 'An app',
      model: 'demo',
    })
    endless = await startHostileAppServer({ aliases: { '/api/health': '/endless' } })
    trickle = await startHostileAppServer({ aliases: { '/api/health': '/trickle' } })
    process.on('uncaughtException', onEscape)
    process.on('unhandledRejection', onEscape)
  })
  afterAll(async () => {
    process.off('uncaughtException', onEscape)
    process.off('unhandledRejection', onEscape)
    await checksSettled(applicationId)
    await Promise.all([endless?.close(), trickle?.close()])
    await database?.close()
  })

  it('fails the health part of an answer without end as too large, and the server stays up', async () => {
    const report = await check(boxServing(endless.target))
    const health = part(report, 'health')
    expect(health.status, JSON.stringify(report)).toBe('failed')
    expect(health.problems[0]?.message).toMatch(
      /^GET \/api\/health: the answer is too large \(over 65,536 bytes\)$/,
    )
    expect(health.durationMs).toBeLessThan(5000)
    expect(report.state).toBe('failed')
    await expect.poll(() => endless.open(), { timeout: 10_000 }).toBe(0)
    expect(escaped).toEqual([])
  })

  it('ends a trickling health route within the part’s limit; Check now is free afterwards', async () => {
    const box = boxServing(trickle.target)
    const started = Date.now()
    const report = await check(box, { partTimeouts: { health: 3 } })
    expect(part(report, 'health').status, JSON.stringify(report)).toBe('timed-out')
    expect(part(report, 'health').durationMs).toBeLessThan(3600)
    expect(part(report, 'errors').status).toBe('passed')
    expect(Date.now() - started).toBeLessThan(10_000)
    await expect.poll(() => trickle.open(), { timeout: 10_000 }).toBe(0)
    // Not 409: the next Check now runs.
    const again = await check(boxServing(endless.target))
    expect(again.state).toBe('failed')
  })

  it('ends a trickling health route within the check’s budget', async () => {
    const started = Date.now()
    const report = await check(boxServing(trickle.target), {
      budgetSeconds: 3,
      partTimeouts: { health: 30 },
    })
    expect(Date.now() - started).toBeLessThan(4000)
    expect(part(report, 'health').status).toBe('timed-out')
    expect(part(report, 'errors')).toMatchObject({
      status: 'skipped',
      note: 'No time left in the check',
    })
  })

  it('ends a part whose box command or dev server start never ends, by its own limit', async () => {
    const started = Date.now()
    const report = await check(boxServing(trickle.target, { hangingCommands: true }), {
      partTimeouts: { types: 1, build: 1, health: 1 },
    })
    expect(part(report, 'types')).toMatchObject({
      status: 'timed-out',
      note: 'Timed out after 1 s',
    })
    expect(part(report, 'build').status).toBe('timed-out')
    const stuck = await check(boxServing(endless.target, { hangingStart: true }), {
      partTimeouts: { health: 1 },
    })
    expect(part(stuck, 'health').status).toBe('timed-out')
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(escaped).toEqual([])
  })
})
