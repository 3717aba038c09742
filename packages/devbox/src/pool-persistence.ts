import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { PackType } from './devbox-driver.ts'

/** A box the pool owns: being provisioned, or ready to be claimed. Claimed boxes are not recorded. */
export type PoolRecord = { id: string; packType: PackType; state: 'provisioning' | 'ready' }

/** Where the pool records its boxes so that a restarted server reuses or destroys them. */
export type PoolPersistence = {
  load: () => Promise<PoolRecord[]>
  save: (records: PoolRecord[]) => Promise<void>
}

/** Keeps the records in a JSON file, replaced atomically on every change. */
export function createJsonFilePoolPersistence(filePath: string): PoolPersistence {
  return {
    load: async () => {
      const text = await readFile(filePath, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '[]'
        throw error
      })
      const parsed: unknown = JSON.parse(text)
      return Array.isArray(parsed) ? parsed.filter(isPoolRecord) : []
    },
    save: async (records) => {
      await mkdir(path.dirname(filePath), { recursive: true })
      const temporaryPath = `${filePath}.${process.pid}.tmp`
      await writeFile(temporaryPath, `${JSON.stringify(records, null, 2)}\n`)
      await rename(temporaryPath, filePath)
    },
  }
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
