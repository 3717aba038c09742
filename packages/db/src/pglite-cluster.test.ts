import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from './database.ts'
import { migrateDatabase } from './migrate.ts'
import { migrationsFolder, prepareClusterFromCache } from './pglite-cluster.ts'

const root = await mkdtemp(path.join(os.tmpdir(), 'sprout-pglite-cluster-'))
afterAll(() => rm(root, { recursive: true, force: true }))

const openAt = (dataDir: string, clusterCacheDir: string) =>
  openDatabase({ kind: 'pglite', dataDir, clusterCacheDir })

describe('PGlite clusters copied from a cache', () => {
  it('starts a new data directory with every migration applied', { timeout: 120_000 }, async () => {
    const database = await openAt(path.join(root, 'migrated'), path.join(root, 'cache-one'))
    const applied = async () =>
      (await database.execute('select count(*)::int as total from drizzle.__drizzle_migrations'))
        .rows[0]?.total
    const journal = JSON.parse(
      await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: unknown[] }
    expect(await applied()).toBe(journal.entries.length)
    await migrateDatabase(database)
    expect(await applied()).toBe(journal.entries.length)
    await database.close()
  })

  it('gives new data directories a cluster of their own, which keeps its rows across a restart', {
    timeout: 120_000,
  }, async () => {
    const cacheDir = path.join(root, 'cache-one')
    const first = await openAt(path.join(root, 'first'), cacheDir)
    await first.execute('create table notes (body text)')
    await first.execute(`insert into notes values ('kept')`)
    await first.close()
    const [template] = await readdir(cacheDir)
    const madeAt = (await stat(path.join(cacheDir, template ?? ''))).mtimeMs

    const second = await openAt(path.join(root, 'second'), cacheDir)
    // The second directory is a copy of the cached cluster, not of the first directory.
    expect((await second.execute(`select to_regclass('notes') as found`)).rows[0]?.found).toBeNull()
    await second.close()
    expect(await readdir(cacheDir)).toEqual([template])
    expect((await stat(path.join(cacheDir, template ?? ''))).mtimeMs).toBe(madeAt)

    const reopened = await openAt(path.join(root, 'first'), cacheDir)
    expect((await reopened.execute('select body from notes')).rows).toEqual([{ body: 'kept' }])
    await reopened.close()
  })

  it('lets servers starting together on an empty cache each get a whole cluster', {
    timeout: 120_000,
  }, async () => {
    const cacheDir = path.join(root, 'cache-race')
    const dataDirs = ['a', 'b'].map((name) => path.join(root, `race-${name}`))
    const copied = await Promise.all(
      dataDirs.map((dataDir) => prepareClusterFromCache(dataDir, cacheDir)),
    )
    expect(copied).toEqual([true, true])
    // Staged and renamed: no half-made folder is left beside the cluster or the data.
    expect(await readdir(cacheDir)).toEqual([expect.stringMatching(/^cluster-[\d.]+-[0-9a-f]+$/)])
    expect((await readdir(root)).filter((name) => name.includes('.staging-'))).toEqual([])
    for (const dataDir of dataDirs) {
      const database = await openAt(dataDir, cacheDir)
      expect((await database.execute('select 1 as one')).rows).toEqual([{ one: 1 }])
      await database.close()
    }
  })

  it('leaves a data directory that already holds files to PGlite', async () => {
    const dataDir = path.join(root, 'not-empty')
    await mkdir(dataDir, { recursive: true })
    await writeFile(path.join(dataDir, 'mine.txt'), 'not a cluster')
    expect(await prepareClusterFromCache(dataDir, path.join(root, 'cache-race'))).toBe(false)
    expect(await readdir(dataDir)).toEqual(['mine.txt'])
  })
})
