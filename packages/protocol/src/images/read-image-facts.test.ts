import { describe, expect, it } from 'vitest'
import { readImageFacts } from './read-image-facts.ts'
import { sampleBytes } from './testing/image-samples.ts'

/** The VP8 or VP8L chunk of a VP8X file, as a simple-format WebP of its own. */
function simpleWebp(vp8x: Uint8Array, fourCc: 'VP8 ' | 'VP8L'): Uint8Array {
  const bytes = Buffer.from(vp8x)
  const at = bytes.indexOf(fourCc, 12, 'latin1')
  const size = bytes.readUInt32LE(at + 4)
  const chunk = bytes.subarray(at, at + 8 + size + (size % 2))
  const header = Buffer.alloc(12)
  header.write('RIFF', 0, 'latin1')
  header.writeUInt32LE(4 + chunk.length, 4)
  header.write('WEBP', 8, 'latin1')
  return new Uint8Array(Buffer.concat([header, chunk]))
}

describe('readImageFacts', () => {
  it("reads the type and size of Chromium's PNG, JPEG and WebP and a GIF", () => {
    expect(readImageFacts(sampleBytes('png'))).toEqual({
      mediaType: 'image/png',
      width: 7,
      height: 5,
    })
    expect(readImageFacts(sampleBytes('jpeg'))).toEqual({
      mediaType: 'image/jpeg',
      width: 13,
      height: 9,
    })
    expect(readImageFacts(sampleBytes('webpLossy'))).toEqual({
      mediaType: 'image/webp',
      width: 17,
      height: 11,
    })
    expect(readImageFacts(sampleBytes('webpAlpha'))).toMatchObject({ width: 23, height: 29 })
    expect(readImageFacts(sampleBytes('gif'))).toEqual({
      mediaType: 'image/gif',
      width: 1,
      height: 1,
    })
  })

  it('reads simple lossy (VP8) and lossless (VP8L) WebP files', () => {
    expect(readImageFacts(simpleWebp(sampleBytes('webpLossy'), 'VP8 '))).toMatchObject({
      width: 17,
      height: 11,
    })
    expect(readImageFacts(simpleWebp(sampleBytes('webpLossless'), 'VP8L'))).toMatchObject({
      width: 19,
      height: 3,
    })
  })

  it('refuses by content: an SVG, text or HTML named anything is not an image', () => {
    const text = (value: string) => new TextEncoder().encode(value)
    expect(readImageFacts(text('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'))).toBe(
      'type',
    )
    expect(readImageFacts(text('<?xml version="1.0"?><svg/>'))).toBe('type')
    expect(readImageFacts(text('<html><body>hi</body></html>'))).toBe('type')
    expect(readImageFacts(new Uint8Array())).toBe('type')
    expect(readImageFacts(text('\u0000\uD800 lone surrogate'))).toBe('type')
  })

  it('calls a cut-short or damaged header unreadable, without reading past its end', () => {
    const png = sampleBytes('png')
    expect(readImageFacts(png.subarray(0, 20))).toBe('unreadable')
    const zeroWidth = png.slice()
    zeroWidth.set([0, 0, 0, 0], 16)
    expect(readImageFacts(zeroWidth)).toBe('unreadable')
    const jpeg = sampleBytes('jpeg')
    expect(readImageFacts(jpeg.subarray(0, 30))).toBe('unreadable')
    // A segment length of zero would never move on.
    expect(readImageFacts(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 1, 2]))).toBe('unreadable')
    expect(readImageFacts(sampleBytes('webpLossy').subarray(0, 20))).toBe('unreadable')
  })

  it('reads the size a header claims, however large (the caller bounds it)', () => {
    const bomb = sampleBytes('png').slice()
    new DataView(bomb.buffer).setUint32(16, 100_000)
    new DataView(bomb.buffer).setUint32(20, 100_000)
    expect(readImageFacts(bomb)).toMatchObject({ width: 100_000, height: 100_000 })
  })
})
