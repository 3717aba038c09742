import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createBoxUids } from './box-uids.ts'

describe('box uids', () => {
  const folders: string[] = []
  afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true }))))
  const recordFile = async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-box-uids-'))
    folders.push(folder)
    return path.join(folder, 'box-uids.json')
  }

  it('gives each box a uid of its own, the same after a restart, and reuses a released one', async () => {
    const file = await recordFile()
    const uids = createBoxUids({ file, first: 61000, count: 3 })
    expect([uids.uidOf('a'), uids.uidOf('b'), uids.uidOf('a')]).toEqual([61000, 61001, 61000])
    const restarted = createBoxUids({ file, first: 61000, count: 3 })
    expect([restarted.uidOf('b'), restarted.uidOf('c')]).toEqual([61001, 61002])
    restarted.release('a')
    expect(restarted.uidOf('d')).toBe(61000)
  })

  it('shares a uid once the range is full, and says so', async () => {
    const full: string[] = []
    const uids = createBoxUids({
      file: await recordFile(),
      first: 61000,
      count: 1,
      onFull: (key) => full.push(key),
    })
    expect([uids.uidOf('a'), uids.uidOf('b')]).toEqual([61000, 61000])
    expect(full).toEqual(['b'])
  })
})
