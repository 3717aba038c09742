import type { ChatImageType } from '../api/images.ts'

/** What an image's own bytes say it is: its type and size in pixels, never its name's word. */
export type ImageFacts = { mediaType: ChatImageType; width: number; height: number }

/** Why bytes are not an image Sprout takes: another kind of file, or one cut short or damaged. */
export type ImageRefusal = 'type' | 'unreadable'

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) =>
  prefix.every((value, index) => bytes[at + index] === value)
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0))
const u16be = (bytes: Uint8Array, at: number) => ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0)
const u16le = (bytes: Uint8Array, at: number) => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8)
const u24le = (bytes: Uint8Array, at: number) => u16le(bytes, at) | ((bytes[at + 2] ?? 0) << 16)
const u32be = (bytes: Uint8Array, at: number) => u16be(bytes, at) * 0x10000 + u16be(bytes, at + 2)

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/**
 * Reads the type and dimensions from an image's header (PNG, JPEG, WebP, GIF): by content, not by
 * name or declared type, so an SVG (scripts) or any other file named .png is refused.
 */
export function readImageFacts(bytes: Uint8Array): ImageFacts | ImageRefusal {
  const facts = headerFacts(bytes)
  if (facts === 'type' || facts === 'unreadable') return facts
  if (!(facts.width > 0 && facts.height > 0)) return 'unreadable'
  return facts
}

function headerFacts(bytes: Uint8Array): ImageFacts | ImageRefusal {
  if (startsWith(bytes, pngSignature)) {
    if (bytes.length < 24 || !startsWith(bytes, ascii('IHDR'), 12)) return 'unreadable'
    return { mediaType: 'image/png', width: u32be(bytes, 16), height: u32be(bytes, 20) }
  }
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) {
    if (bytes.length < 10) return 'unreadable'
    return { mediaType: 'image/gif', width: u16le(bytes, 6), height: u16le(bytes, 8) }
  }
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8))
    return webpFacts(bytes)
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpegFacts(bytes)
  return 'type'
}

function webpFacts(bytes: Uint8Array): ImageFacts | ImageRefusal {
  const facts = (width: number, height: number): ImageFacts => ({
    mediaType: 'image/webp',
    width,
    height,
  })
  if (startsWith(bytes, ascii('VP8 '), 12)) {
    if (bytes.length < 30 || !startsWith(bytes, [0x9d, 0x01, 0x2a], 23)) return 'unreadable'
    return facts(u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff)
  }
  if (startsWith(bytes, ascii('VP8L'), 12)) {
    if (bytes.length < 25 || bytes[20] !== 0x2f) return 'unreadable'
    const bits = u16le(bytes, 21) | (u16le(bytes, 23) * 0x10000)
    return facts((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1)
  }
  if (startsWith(bytes, ascii('VP8X'), 12)) {
    if (bytes.length < 30) return 'unreadable'
    return facts(u24le(bytes, 24) + 1, u24le(bytes, 27) + 1)
  }
  return 'unreadable'
}

/** Start-of-frame markers: every JPEG coding but the table and restart markers. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

function jpegFacts(bytes: Uint8Array): ImageFacts | ImageRefusal {
  let at = 2
  // Each segment moves forward by at least its two length bytes, so this ends.
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return 'unreadable'
    const marker = bytes[at + 1] ?? 0
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at += 1
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2
      continue
    }
    const length = u16be(bytes, at + 2)
    if (length < 2) return 'unreadable'
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) return 'unreadable'
      return { mediaType: 'image/jpeg', width: u16be(bytes, at + 7), height: u16be(bytes, at + 5) }
    }
    at += 2 + length
  }
  return 'unreadable'
}
