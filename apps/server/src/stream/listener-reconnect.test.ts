import { randomUUID } from 'node:crypto'
import type { DatabaseHandle } from '@sprout/db/database.ts'
import { organization } from '@sprout/db/schema/auth.ts'
import { conversations } from '@sprout/db/schema/conversations.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, testDatabaseKind } from '../testing/database.ts'
import { openOtherInstanceDatabase } from '../testing/other-instance-database.ts'
import type { EncodedEnvelope } from './encoded-envelope.ts'
import { createEventHub, type EventHub } from './event-hub.ts'
import { createEventStore, type EventStore } from './event-store.ts'

type Process = { store: EventStore; hub: EventHub }

async function startProcess(database: DatabaseHandle): Promise<Process> {
  let store: EventStore | undefined
  const hub = createEventHub({ database, store: () => store as EventStore })
  store = createEventStore({ database, onStored: hub.published })
  await hub.start()
  return { store, hub }
}

/**
 * Events appended by A while B's listener is cut (their NOTIFY lost for B) reach B's live
 * listeners once it is back: B's hub reads after each channel's last seq on reconnect
 * (docs/architecture/scale-out.md "What already works across processes").
 */
describe.skipIf(testDatabaseKind !== 'postgres')(
  'a live stream across a listener reconnect',
  {
    timeout: 60_000,
  },
  () => {
    let database: DatabaseHandle
    let other: Awaited<ReturnType<typeof openOtherInstanceDatabase>>
    let first: Process
    let second: Process
    let organizationId: string

    beforeAll(async () => {
      database = await createTestDatabase()
      other = await openOtherInstanceDatabase(database, { listenerRetryMs: 2000 })
      organizationId = randomUUID()
      await database.db
        .insert(organization)
        .values({ id: organizationId, name: 'Org', slug: organizationId, createdAt: new Date() })
      first = await startProcess(database)
      second = await startProcess(other.database)
    })
    afterAll(async () => {
      for (const process of [first, second]) {
        await process?.hub.stop()
        process?.store.close()
      }
      await other?.database.close()
      await database?.close()
    })

    it("delivers A's events appended while B's listener was down", async () => {
      const conversationId = randomUUID()
      await database.db.insert(conversations).values({
        id: conversationId,
        organizationId,
        kind: 'exploration',
        title: 'Test',
        activeModel: 'demo',
      })
      const received: number[] = []
      const subscription = await second.hub.subscribe(conversationId, {
        deliver: (envelope: EncodedEnvelope) => received.push(envelope.seq),
        heartbeat: () => {},
        close: () => {},
      })
      await first.store.appendAndWait(conversationId, 'r', { type: 'text-start', id: '1' })
      const deadline = (withinMs: number) => Date.now() + withinMs
      const until = async (condition: () => boolean, by: number) => {
        while (!condition() && Date.now() < by)
          await new Promise((resolve) => setTimeout(resolve, 20))
        return condition()
      }
      expect(await until(() => received.length === 1, deadline(5000))).toBe(true)

      await other.cutListener()
      await first.store.appendAndWait(conversationId, 'r', { type: 'text-start', id: '2' })
      await first.store.appendAndWait(conversationId, 'r', { type: 'text-start', id: '3' })
      // Both NOTIFYs went out while B listened on nothing.
      expect(await other.listenerPids()).toEqual([])

      expect(await until(() => received.length === 3, deadline(5000))).toBe(true)
      expect(received).toEqual([1, 2, 3])
      subscription.unsubscribe()
    })
  },
)
