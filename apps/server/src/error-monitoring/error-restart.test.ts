import { randomUUID } from 'node:crypto'
import { mkdtemp } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { type DatabaseHandle, openDatabase } from '@sprout/db/database.ts'
import { migrateDatabase } from '@sprout/db/migrate.ts'
import { removeWithMounts } from '@sprout/devbox/drivers/local/sandbox/box-disk.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserErrorEvent, sdkEnvelope } from '../testing/sentry-envelopes.ts'
import { createErrorIngest, dsnFor, errorProjectOf, ingestEnvelope } from './service.ts'

/** docs/product/error-monitoring.md "Ingest": every envelope answered 200 survives a restart. */
describe('error ingest across a restart', () => {
  let dataDir: string
  let database: DatabaseHandle
  let applicationId: string
  let dsn: string
  const open = async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db') })
    await migrateDatabase(database)
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-error-restart-'))
    await open()
    const organizationId = randomUUID()
    applicationId = randomUUID()
    await database.execute(
      `insert into organization (id, name, slug, created_at) values ($1, 'Org', $1, now())`,
      [organizationId],
    )
    await database.execute(
      `insert into applications (id, organization_id, name, slug, initial_prompt, model)
       values ($1, $2, 'App', $1, 'x', 'demo')`,
      [applicationId, organizationId],
    )
    dsn = dsnFor('http://localhost:3000', await errorProjectOf(database.db, applicationId))
  })
  afterAll(async () => {
    await database.close()
    await removeWithMounts(dataDir)
  })

  it('keeps every answered event when it stops with envelopes still arriving', async () => {
    const ingest = createErrorIngest({
      db: database.db,
      rateLimit: { max: 1_000_000, windowSeconds: 60 },
    })
    const url = new URL(dsn)
    const send = (index: number) => {
      const body = Buffer.from(
        sdkEnvelope(dsn, browserErrorEvent(`Restart ${'abcdefg'[index % 7]}`)),
      )
      return ingestEnvelope(ingest, {
        projectId: url.pathname.slice(1),
        // As a node request or a fetch Request brings it.
        body: index % 2 === 0 ? Readable.from([body]) : new Blob([body]).stream(),
        headers: {
          'content-type': 'text/plain',
          'x-sentry-auth': `Sentry sentry_key=${url.username}`,
        },
        query: new URLSearchParams(),
      })
    }
    const answers: Promise<{ status: number }>[] = []
    for (let index = 0; index < 150; index++) answers.push(send(index))
    await answers[20]
    const stopping = ingest.stop()
    for (let index = 150; index < 200; index++) answers.push(send(index))
    await stopping
    const statuses = (await Promise.all(answers)).map((answer) => answer.status)
    const accepted = statuses.filter((status) => status === 200).length
    expect(accepted).toBeGreaterThan(20)
    expect(statuses.filter((status) => status !== 200).every((status) => status === 503)).toBe(true)
    await database.close()
    await open()
    const stored = await database.execute(
      'select (select count(*) from error_instances) as instances, (select sum(occurrence_count) from error_groups) as counted',
    )
    expect(Number(stored.rows[0]?.instances)).toBe(accepted)
    expect(Number(stored.rows[0]?.counted)).toBe(accepted)
  })
})
