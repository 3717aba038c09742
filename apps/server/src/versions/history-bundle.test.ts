// Issue 29, item 1: only a real bundle from the box reaches git, written to a file as it comes.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BundleFileResult, createBundleFile } from './history-bundle.ts'

const head = 'e5c824e5daade8f2bf51adddb8d52fc814694eaa'
const base64 = (text: string | Buffer) => Buffer.from(text).toString('base64')

/** Each split of the output into pieces of `size` characters (the box's output arrives so). */
function pieces(output: string, size: number): string[] {
  const parts: string[] = []
  for (let at = 0; at < output.length; at += size) parts.push(output.slice(at, at + size))
  return parts
}

describe('a history bundle written as it streams', () => {
  let folder: string
  let written = 0
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'sprout-bundle-test-'))
  })
  afterAll(() => rm(folder, { recursive: true, force: true }))

  /** The result for the output in pieces of `size`, whether the box was stopped, the file. */
  async function write(output: string, size: number, maxBytes = 1024 * 1024) {
    const filePath = path.join(folder, `bundle-${written++}`)
    let stopped = false
    const file = createBundleFile(filePath, maxBytes, () => {
      stopped = true
    })
    for (const piece of pieces(output, size)) file.push(piece)
    file.close()
    const result: BundleFileResult = file.result()
    return { result, stopped, bytes: await readFile(filePath) }
  }

  it('accepts the base64 of a v2 or v3 bundle header followed by a pack, in any pieces', async () => {
    for (const bundle of [
      `# v2 git bundle\n${head} HEAD\n\nPACK\u0000`,
      `# v3 git bundle\n@object-format=sha1\n${head} HEAD\n\nPACK`,
    ]) {
      for (const size of [1, 3, 5, 4096]) {
        const { result, bytes } = await write(`  ${base64(bundle)}\n`, size)
        expect(result, `${bundle} in pieces of ${size}`).toBe('bundle')
        expect(bytes.toString('utf8')).toBe(bundle)
      }
    }
  })

  it('refuses a gitfile, other text, loose base64 and a header without a pack', async () => {
    for (const output of [
      base64('gitdir: /srv/sprout/.git\n'),
      'gitdir: /srv/sprout/.git',
      base64(`# v2 git bundle\n${head} HEAD\n\n`),
      base64(`# v2 git bundle\n/etc/passwd HEAD\n\nPACK`),
      base64(`# v2 git bundle\n@object-format=sha1\n${head} HEAD\n\nPACK`),
      `${base64(`# v2 git bundle\n${head} HEAD\n\nPACK`)} junk`,
      `${base64(`# v2 git bundle\n${head} HEAD\n\nPACK!`)}QUFB`,
    ]) {
      for (const size of [2, 4096]) {
        expect((await write(output, size)).result, output).toBe('not-a-bundle')
      }
    }
    expect((await write('', 10)).result).toBe('empty')
  })

  it('stops at a start no bundle has, and past the size cap, keeping no more than the cap', async () => {
    const endless = base64(Buffer.alloc(3 * 1024 * 1024))
    const notBundle = await write(endless, 64 * 1024)
    expect(notBundle).toMatchObject({ result: 'not-a-bundle', stopped: true })
    expect(notBundle.bytes.length).toBe(0)
    const header = Buffer.from(`# v2 git bundle\n${head} HEAD\n\nPACK`)
    const large = base64(Buffer.concat([header, Buffer.alloc(3 * 1024 * 1024 - header.length)]))
    const tooLarge = await write(large, 64 * 1024, 1024 * 1024)
    expect(tooLarge).toMatchObject({ result: 'too-large', stopped: true })
    expect(tooLarge.bytes.length).toBeLessThanOrEqual(1024 * 1024)
  })
})
