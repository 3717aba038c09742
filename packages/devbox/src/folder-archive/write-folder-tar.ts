import { readdir, realpath } from 'node:fs/promises'
import path from 'node:path'
import type { Writable } from 'node:stream'
import { maxFiles, maxTotalBytes, readFileInside } from '../copy-build-output.ts'

const block = 512

function writeText(buffer: Buffer, text: string, offset: number, length: number) {
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length > length) throw new Error(`The name ${JSON.stringify(text)} is too long`)
  bytes.copy(buffer, offset)
}

const writeOctal = (buffer: Buffer, value: number, offset: number, length: number) =>
  buffer.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, 'ascii')

/** A ustar header; a name past 100 bytes is split into prefix and name at a slash. */
export function tarHeader(name: string, size: number, type: 'file' | 'directory'): Buffer {
  const header = Buffer.alloc(block)
  let prefix = ''
  let base = name
  if (Buffer.byteLength(name) > 100) {
    const cut = name.indexOf('/', Math.max(0, Buffer.byteLength(name) - 101))
    if (cut <= 0) throw new Error(`The name ${JSON.stringify(name)} is too long`)
    prefix = name.slice(0, cut)
    base = name.slice(cut + 1)
  }
  writeText(header, base, 0, 100)
  writeOctal(header, type === 'directory' ? 0o755 : 0o644, 100, 8)
  writeOctal(header, 0, 108, 8)
  writeOctal(header, 0, 116, 8)
  writeOctal(header, size, 124, 12)
  writeOctal(header, 0, 136, 12)
  header.fill(0x20, 148, 156)
  header.write(type === 'directory' ? '5' : '0', 156, 'ascii')
  header.write('ustar\u000000', 257, 'ascii')
  writeText(header, prefix, 345, 155)
  let checksum = 0
  for (const byte of header) checksum += byte
  header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii')
  return header
}

/**
 * Writes a folder as a tar stream (the in-box agent's `pack`, decision 037): regular files and
 * folders only, never a link, each file read by `readFileInside`, within the build output's
 * limits.
 */
export async function writeFolderTar(folder: string, output: Writable) {
  const root = await realpath(folder)
  let files = 0
  let totalBytes = 0
  const send = (chunk: Buffer) =>
    new Promise<void>((resolve, reject) => {
      output.write(chunk, (error) => (error ? reject(error) : resolve()))
    })
  const walk = async (directory: string, prefix: string) => {
    const entries = await readdir(directory, { withFileTypes: true })
    entries.sort((left, right) => left.name.localeCompare(right.name))
    for (const entry of entries) {
      const name = `${prefix}${entry.name}`
      const source = path.join(directory, entry.name)
      if (entry.isDirectory()) {
        await send(tarHeader(`${name}/`, 0, 'directory'))
        await walk(source, `${name}/`)
        continue
      }
      if (!entry.isFile()) continue
      if (++files > maxFiles) throw new Error(`The folder has more than ${maxFiles} files`)
      const content = await readFileInside(source, root, (size) => {
        totalBytes += size
        if (totalBytes > maxTotalBytes) throw new Error('The folder is larger than 500 MB')
      })
      if (!content) continue
      await send(tarHeader(name, content.length, 'file'))
      await send(content)
      const padding = (block - (content.length % block)) % block
      if (padding > 0) await send(Buffer.alloc(padding))
    }
  }
  await walk(root, '')
  await send(Buffer.alloc(block * 2))
}
