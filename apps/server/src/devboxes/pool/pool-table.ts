import { rm } from 'node:fs/promises'
import type { Database } from '@sprout/db/database.ts'
import type { PackType } from '@sprout/devbox/devbox-driver.ts'
import {
  type PoolPersistence,
  type PoolRecord,
  readPoolFile,
} from '@sprout/devbox/pool-persistence.ts'
import { sql } from 'drizzle-orm'

/**
 * How an instance alone names its rows (`local:{hostname}:{DATA_DIR}`): its boxes are under its
 * DATA_DIR, so a shared pool neither counts nor hands them out, and its leader drops their rows.
 */
export const localInstancePrefix = 'local:'

/** An instance whose row has not beaten for this long is gone (its beat is every 5 s). */
const goneAfterSeconds = 30

type Rows<Row> = { rows: Row[] }

/**
 * The pool's records in `devbox_pool`, shared by every instance on the database
 * (docs/decisions/034-one-pool-in-a-table.md). A claim is one statement, `delete … returning`
 * over a row locked with `for update skip locked`: two claimers at once never get one box.
 * Alone (`shared` false) an instance claims only the boxes it made, which it keeps open; shared,
 * any instance's closed box.
 */
export function createPoolTable(
  db: Database,
  options: {
    /** Who makes the boxes: the cluster's instance id, or this DATA_DIR's stable one. */
    instanceId: () => string
    shared: boolean
    /** The pool.json of an older version, read once at `load`, then removed. */
    legacyFile?: string
  },
): PoolPersistence {
  const { instanceId } = options
  const execute = async <Row>(query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as Rows<Row>).rows
  const put = async (record: PoolRecord) => {
    await db.execute(sql`
      insert into devbox_pool (id, pack_type, state, instance_id, template)
      values (${record.id}, ${record.packType}, ${record.state}, ${instanceId()},
        ${record.template ?? null})
      on conflict (id) do update set state = excluded.state, template = excluded.template`)
  }
  const table: PoolPersistence = {
    load: async () => {
      if (options.legacyFile) await adoptLegacyFile(options.legacyFile, put)
      const rows = await execute<{
        id: string
        pack_type: string
        state: string
        template: string | null
      }>(sql`
        select id, pack_type, state, template from devbox_pool
        where instance_id = ${instanceId()} order by created_at`)
      return rows.map((row) => ({
        id: row.id,
        packType: row.pack_type as PackType,
        state: row.state === 'ready' ? 'ready' : 'provisioning',
        template: row.template ?? undefined,
      }))
    },
    put,
    remove: async (id) => {
      await db.execute(sql`delete from devbox_pool where id = ${id}`)
    },
    claim: async (packType, template) => {
      const mine = options.shared
        ? sql`and instance_id not like ${`${localInstancePrefix}%`}`
        : sql`and instance_id = ${instanceId()}`
      const rows = await execute<{ id: string }>(sql`
        delete from devbox_pool where id = (
          select id from devbox_pool
          where pack_type = ${packType} and state = 'ready' ${mine} ${ofTemplate(template)}
          order by created_at limit 1 for update skip locked)
        returning id`)
      return rows[0]?.id
    },
  }
  if (!options.shared) return table
  return {
    ...table,
    count: async (packType, template) => {
      const rows = await execute<{ state: string; boxes: number | string }>(sql`
        select state, count(*) as boxes from devbox_pool
        where pack_type = ${packType} and instance_id not like ${`${localInstancePrefix}%`}
          ${ofTemplate(template)}
        group by state`)
      const of = (state: string) => Number(rows.find((row) => row.state === state)?.boxes ?? 0)
      return { ready: of('ready'), provisioning: of('provisioning') }
    },
    // A ready box is its files, claimable whoever made it; one half-provisioned by an instance
    // that is gone will never be finished; a lone instance's, from before SHARED_DIR, is not here.
    // Ready ones of another starter too, once the instance that made them is gone: an upgraded
    // pool hands them to nobody, and they would wait in the table for ever.
    takeAbandoned: async (templateOf) => {
      const rows = await execute<{ id: string; pack_type: string; template: string | null }>(sql`
        delete from devbox_pool
        where instance_id like ${`${localInstancePrefix}%`} or (state = 'provisioning'
          and instance_id not in (
            select id from sprout_instances
            where heartbeat_at > now() - make_interval(secs => ${goneAfterSeconds})))
        returning id, pack_type, template`)
      const outdated = await execute<{ id: string; pack_type: string; template: string | null }>(
        sql`select id, pack_type, template from devbox_pool where state = 'ready'
          and instance_id not in (
            select id from sprout_instances
            where heartbeat_at > now() - make_interval(secs => ${goneAfterSeconds}))`,
      )
      const stale = outdated.filter((row) => {
        const current = templateOf(row.pack_type as PackType)
        return current !== undefined && row.template !== current
      })
      for (const row of stale) await db.execute(sql`delete from devbox_pool where id = ${row.id}`)
      return [...rows, ...stale].map((row) => row.id)
    },
  }
}

/** A claim or count of the boxes of one starter; none given: any. */
const ofTemplate = (template: string | undefined) =>
  template === undefined ? sql`` : sql`and template = ${template}`

/** Records the boxes of an older version's pool.json as this pool's, then removes the file. */
async function adoptLegacyFile(filePath: string, put: (record: PoolRecord) => Promise<void>) {
  const records = await readPoolFile(filePath).catch(() => [])
  for (const record of records) await put(record)
  await rm(filePath, { force: true })
}
