import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { PackType } from './devbox-driver.ts'

/** A box the pool owns: being provisioned, or ready to be claimed. Claimed boxes are not recorded. */
export type PoolRecord = {
  id: string
  packType: PackType
  state: 'provisioning' | 'ready'
  /** The version of the starter it was made from (DevboxPoolOptions.templateOf). */
  template?: string
}

/**
 * Where the pool records its boxes, so that a restarted server reuses or destroys them and two
 * claimers never get one box (the server's: the `devbox_pool` table, decision 034).
 */
export type PoolPersistence = {
  /** The records this pool left before a restart: its own, not other instances'. */
  load: () => Promise<PoolRecord[]>
  /** Records a box, or its new state. */
  put: (record: PoolRecord) => Promise<void>
  remove: (id: string) => Promise<void>
  /**
   * Takes one ready record of the pack type out, atomically, of the starter `template` when given;
   * undefined when there is none.
   */
  claim: (packType: PackType, template?: string) => Promise<string | undefined>
  /** A shared pool's boxes of the pack type and starter, every instance's, ready or being provisioned. */
  count?: (
    packType: PackType,
    template?: string,
  ) => Promise<{ ready: number; provisioning: number }>
  /**
   * A shared pool's records left by instances that are gone, and ready ones of another starter
   * than `templateOf` says, taken out to be destroyed.
   */
  takeAbandoned?: (templateOf: (packType: PackType) => string | undefined) => Promise<string[]>
}

/** Keeps the records in memory, for a pool that need not outlive its process. */
export function createMemoryPoolPersistence(
  changed: (records: PoolRecord[]) => Promise<void> = async () => undefined,
): PoolPersistence & { replace: (records: PoolRecord[]) => void } {
  const records = new Map<string, PoolRecord>()
  return {
    replace: (loaded) => {
      records.clear()
      for (const record of loaded) records.set(record.id, record)
    },
    load: async () => [...records.values()],
    put: async (record) => {
      records.set(record.id, record)
      await changed([...records.values()])
    },
    remove: async (id) => {
      if (!records.delete(id)) return
      await changed([...records.values()])
    },
    claim: async (packType, template) => {
      const found = [...records.values()].find(
        (record) =>
          record.packType === packType &&
          record.state === 'ready' &&
          (template === undefined || record.template === template),
      )
      if (!found) return undefined
      records.delete(found.id)
      await changed([...records.values()])
      return found.id
    },
  }
}

/**
 * Keeps the records in a JSON file, replaced atomically on every change (one process only; the
 * server's pool.json before decision 034, still read once to adopt its boxes).
 */
export function createJsonFilePoolPersistence(filePath: string): PoolPersistence {
  let saving = Promise.resolve()
  const memory = createMemoryPoolPersistence((records) => {
    // Saves run one after another, each of the records as they were when it was asked.
    saving = saving.then(() => saveRecords(filePath, records))
    return saving
  })
  return {
    ...memory,
    load: async () => {
      memory.replace(await readPoolFile(filePath))
      return memory.load()
    },
  }
}

/** The records of a pool's JSON file; none when it does not exist. */
export async function readPoolFile(filePath: string): Promise<PoolRecord[]> {
  const text = await readFile(filePath, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '[]'
    throw error
  })
  const parsed: unknown = JSON.parse(text)
  return Array.isArray(parsed) ? parsed.filter(isPoolRecord) : []
}

async function saveRecords(filePath: string, records: PoolRecord[]) {
  await mkdir(path.dirname(filePath), { recursive: true })
  const temporaryPath = `${filePath}.${process.pid}.tmp`
  await writeFile(temporaryPath, `${JSON.stringify(records, null, 2)}\n`)
  await rename(temporaryPath, filePath)
}

function isPoolRecord(value: unknown): value is PoolRecord {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return (
    typeof record.id === 'string' &&
    typeof record.packType === 'string' &&
    (record.state === 'provisioning' || record.state === 'ready')
  )
}
