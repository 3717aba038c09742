import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { pack } from 'tar-stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { extractFolderTar, FolderArchiveError } from './extract-folder-tar.ts'
import { writeFolderTar } from './write-folder-tar.ts'

/** A tar as an attacker writes it: any entry type, any name. */
async function hostileTar(
  entries: { name: string; type?: string; linkname?: string; body?: string }[],
) {
  const archive = pack()
  for (const entry of entries) {
    archive.entry(
      { name: entry.name, type: (entry.type ?? 'file') as 'file', linkname: entry.linkname },
      entry.body ?? '',
    )
  }
  archive.finalize()
  return buffer(archive as unknown as Readable)
}

describe('a folder as a tar stream, out of a box (decision 037)', () => {
  let folder = ''
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-folder-tar-'))
  })
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  it('carries files and folders, long names and bytes unchanged, and leaves links out', async () => {
    const source = path.join(folder, 'dist')
    const deep = path.join(source, 'a'.repeat(60), 'b'.repeat(60))
    await mkdir(deep, { recursive: true })
    await writeFile(path.join(source, 'index.html'), '<h1>hi</h1>')
    await writeFile(path.join(deep, 'chunk.js'), Buffer.from([0, 255, 10, 13]))
    await writeFile(path.join(source, 'empty.txt'), '')
    await symlink('/etc/hostname', path.join(source, 'host'))
    await symlink('/etc', path.join(source, 'etc'))
    const stream = new PassThrough()
    const written = writeFolderTar(source, stream).then(() => stream.end())
    await extractFolderTar(stream, path.join(folder, 'copy'))
    await written
    const copied = await readdir(path.join(folder, 'copy'), { recursive: true })
    expect(copied.sort()).toEqual(
      [
        'a'.repeat(60),
        `${'a'.repeat(60)}/${'b'.repeat(60)}`,
        `${'a'.repeat(60)}/${'b'.repeat(60)}/chunk.js`,
        'empty.txt',
        'index.html',
      ].sort(),
    )
    const chunk = await readFile(
      path.join(folder, 'copy', 'a'.repeat(60), 'b'.repeat(60), 'chunk.js'),
    )
    expect([...chunk]).toEqual([0, 255, 10, 13])
  })

  it('refuses every entry that leaves the folder or is not a file or folder, writing nothing outside', async () => {
    const cases = [
      [{ name: '../escaped.txt' }],
      [{ name: '/tmp/absolute.txt' }],
      [{ name: 'a/../../escaped.txt' }],
      [{ name: 'link', type: 'symlink', linkname: '/etc/passwd' }],
      [{ name: 'hard', type: 'link', linkname: '/etc/passwd' }],
      [{ name: 'device', type: 'character-device' }],
      [{ name: 'fifo', type: 'fifo' }],
      [{ name: 'back\\slash' }],
      [{ name: 'twice.txt' }, { name: 'twice.txt' }],
      [{ name: 'file' }, { name: 'file/inside.txt' }],
    ]
    for (const [index, entries] of cases.entries()) {
      const destination = path.join(folder, `out-${index}`)
      const attempt = extractFolderTar(
        Readable.from([await hostileTar(entries)]),
        destination,
      ).then(
        () => undefined,
        (error: Error) => error,
      )
      expect(await attempt, JSON.stringify(entries)).toBeInstanceOf(Error)
    }
    // A tar name ends at its first NUL: what follows never reaches the disk.
    await extractFolderTar(
      Readable.from([await hostileTar([{ name: 'nul\0/../../x.txt' }])]),
      path.join(folder, 'nul'),
    )
    expect(await readdir(path.join(folder, 'nul'))).toEqual(['nul'])
    expect(await readdir(folder)).not.toContain('escaped.txt')
    expect(await readdir(path.dirname(folder))).not.toContain('escaped.txt')
  })

  it('refuses an archive past the build output size, and a stream that is not a tar', async () => {
    const attempt = extractFolderTar(
      Readable.from([Buffer.from('gitdir: /some/host/repo.git\n'.repeat(40))]),
      path.join(folder, 'not-tar'),
    ).then(
      () => undefined,
      (error: Error) => error,
    )
    expect(await attempt).toBeInstanceOf(Error)
    const header = Buffer.alloc(512)
    // A header claiming 600 MB, then nothing: refused before a byte is written.
    const archive = pack()
    archive.entry({ name: 'big.bin', size: 600 * 1024 * 1024 }, () => {})
    const big = await extractFolderTar(
      Readable.from([(await readHeader(archive)) ?? header]),
      path.join(folder, 'big'),
    ).then(
      () => undefined,
      (error: Error) => error,
    )
    expect(big).toBeInstanceOf(FolderArchiveError)
  })
})

/** The first block a packer writes for an entry (its header). */
function readHeader(archive: ReturnType<typeof pack>) {
  return new Promise<Buffer | undefined>((resolve) => {
    archive.once('data', (chunk: unknown) => resolve((chunk as Buffer).subarray(0, 512)))
  })
}
