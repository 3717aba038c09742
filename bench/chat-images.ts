// Images in the chat (docs/product/images.md), over real HTTP on PGlite: a 5 MB PNG uploaded
// (POST /api/images → 201) and shown (GET /api/images/{id}, every byte), p50 / p95.
import { deflateSync } from 'node:zlib'
import { createTestApp } from '../apps/server/src/testing/app-harness.ts'
import { CHAT_IMAGE_MAX_BYTES } from '../packages/protocol/src/api/images.ts'
import { milliseconds, p50AndP95 } from './lib/stats.ts'

const rounds = 30

/** A real PNG of noise, as large as the limit allows: noise does not compress. */
function noisePng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlibCrc32(body))
    return Buffer.concat([length, body, crc])
  }
  const width = 1140
  const height = 1140
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 6, 0, 0, 0], 8)
  const rows = Buffer.alloc((width * 4 + 1) * height)
  for (let index = 0; index < rows.length; index++) rows[index] = (index * 2654435761) >>> 24
  for (let row = 0; row < height; row++) rows[row * (width * 4 + 1)] = 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function zlibCrc32(bytes: Buffer): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return (crc ^ 0xffffffff) >>> 0
}

export async function benchChatImages(): Promise<Record<string, string>> {
  const harness = await createTestApp()
  try {
    await harness.listen()
    const owner = await harness.signUp()
    const organizationId = await harness.createOrganization(owner)
    const png = noisePng()
    if (png.length > CHAT_IMAGE_MAX_BYTES) throw new Error(`${png.length} bytes is past the limit`)
    const base = `http://127.0.0.1:${harness.port}`
    const headers = { authorization: `Bearer ${owner.token}`, origin: base }
    const accepted: number[] = []
    const shown: number[] = []
    const both: number[] = []
    for (let round = 0; round < rounds; round++) {
      const started = performance.now()
      const upload = await fetch(`${base}/api/images`, {
        method: 'POST',
        headers: { ...headers, 'organization-id': organizationId, 'content-type': 'image/png' },
        body: new Uint8Array(png),
      })
      if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${await upload.text()}`)
      const { id } = (await upload.json()) as { id: string }
      const uploadedAt = performance.now()
      const read = await fetch(`${base}/api/images/${id}`, { headers })
      const bytes = (await read.arrayBuffer()).byteLength
      if (read.status !== 200 || bytes !== png.length) throw new Error(`read: ${read.status}`)
      const end = performance.now()
      accepted.push(uploadedAt - started)
      shown.push(end - uploadedAt)
      both.push(end - started)
    }
    return {
      [`${(png.length / 1024 / 1024).toFixed(1)} MB PNG accepted (POST → 201), p50 / p95, n=${rounds}`]:
        p50AndP95(accepted),
      '… shown (GET, every byte), p50 / p95': p50AndP95(shown),
      '… accepted and shown, p50 / p95 / max': `${p50AndP95(both)} / ${milliseconds(Math.max(...both))}`,
    }
  } finally {
    await harness.close()
  }
}
