/** TEST HELPER: image files as a user picks, pastes or drops them, and the server's answer. */
import type { ChatImage } from '@sprout/protocol/api/images.ts'
import { readImageFacts } from '@sprout/protocol/images/read-image-facts.ts'
import { type imageSamples, sampleBytes } from '@sprout/protocol/images/testing/image-samples.ts'
import { act } from 'react'

/** A real image Chromium encoded: png 7 × 5, jpeg 13 × 9, gif 1 × 1. */
export function sampleImageFile(sample: keyof typeof imageSamples, name = `${sample}-image`): File {
  const bytes = sampleBytes(sample)
  return new File([bytes], name, { type: `image/${sample.startsWith('webp') ? 'webp' : sample}` })
}

/** An SVG (it may hold scripts) dressed up as a PNG by its name and type. */
export const svgNamedPng = () =>
  new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], 'x.png', {
    type: 'image/png',
  })

let uploads = 0

/** What POST /api/images answers for these bytes, as the server reads them. */
export async function uploadAnswer(body: Blob): Promise<ChatImage> {
  const facts = readImageFacts(new Uint8Array(await body.arrayBuffer()))
  if (typeof facts === 'string') throw new Error(`Not an image: ${facts}`)
  uploads += 1
  return {
    id: `image-${uploads}`,
    media_type: facts.mediaType,
    width: facts.width,
    height: facts.height,
    size: body.size,
  }
}

/** Picks files in the hidden file input the attach button opens. */
export function chooseFiles(container: ParentNode, files: File[]): void {
  const input = container.querySelector<HTMLInputElement>('input[type="file"]')
  if (!input) throw new Error('No file input')
  Object.defineProperty(input, 'files', { value: files, configurable: true })
  act(() => {
    input.dispatchEvent(new Event('change', { bubbles: true }))
  })
}

const transferOf = (files: File[], text = '') => {
  const data = new DataTransfer()
  for (const file of files) data.items.add(file)
  if (text) data.setData('text/plain', text)
  return data
}

/** Pastes into `target` what a screenshot tool leaves on the clipboard; answers the event. */
export function pasteFiles(target: Element, files: File[], text = ''): ClipboardEvent {
  const event = new ClipboardEvent('paste', {
    clipboardData: transferOf(files, text),
    bubbles: true,
    cancelable: true,
  })
  act(() => {
    target.dispatchEvent(event)
  })
  return event
}

/** Drags files over `target` and drops them there. */
export function dropFiles(target: Element, files: File[]): void {
  const dataTransfer = transferOf(files)
  // happy-dom's DragEvent leaves its init's dataTransfer out.
  const dragEvent = (type: string) =>
    Object.assign(new Event(type, { bubbles: true, cancelable: true }), { dataTransfer })
  act(() => {
    target.dispatchEvent(dragEvent('dragover'))
    target.dispatchEvent(dragEvent('drop'))
  })
}
