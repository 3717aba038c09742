import {
  type ChatImage,
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
} from '@sprout/protocol/api/images.ts'
import { createBlocksState } from '@sprout/protocol/stream/blocks-state.ts'
import { act, useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useImageAttachments } from '../../hooks/use-image-attachments.ts'
import {
  chooseFiles,
  dropFiles,
  pasteFiles,
  sampleImageFile,
  svgNamedPng,
  uploadAnswer,
} from '../../testing/image-files.ts'
import { buttonNamed, cleanup, render, until } from '../../testing/render.tsx'
import { ChatPanel } from './chat-panel.tsx'

// docs/product/images.md "Attaching": the chat input's images, with the real attachments hook and
// a fake POST /api/images.

type Upload = { body: Blob; answer: (response: Response) => void }
let uploads: Upload[] = []
let holdUploads = false
const json = (body: unknown, status = 201) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

beforeEach(() => {
  uploads = []
  holdUploads = false
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    if (path !== '/api/images' || init.method !== 'POST') return json({ error: 'Not found' }, 404)
    const body = init.body as Blob
    if (!holdUploads) {
      uploads.push({ body, answer: () => {} })
      return json(await uploadAnswer(body))
    }
    return new Promise<Response>((resolve) => {
      uploads.push({ body, answer: resolve })
    })
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

type HarnessProps = {
  onSend: (text: string, images: ChatImage[]) => void
  onEscape?: () => void
  isRunning?: boolean
  imagesRefusal?: string | null
}

function Harness({ onSend, onEscape = () => {}, isRunning = false, imagesRefusal }: HarnessProps) {
  const [draft, setDraft] = useState('')
  const attachments = useImageAttachments()
  return (
    <ChatPanel
      state={{ ...createBlocksState(), isRunning }}
      draft={draft}
      onDraftChange={setDraft}
      onSend={(text, images) => {
        onSend(text, images)
        setDraft('')
        attachments.clear()
      }}
      attachments={attachments}
      imagesRefusal={imagesRefusal}
      onEscape={onEscape}
      onInterrupt={() => {}}
      placeholder="Message"
      workingText="Working..."
      emptyState={null}
    />
  )
}

const textarea = () => document.querySelector('textarea') as HTMLTextAreaElement
const thumbnails = () => [...document.querySelectorAll('[data-testid="draft-image"]')]
const alerts = () =>
  [...document.querySelectorAll('[role="alert"]')].map((node) => node.textContent)
const readyCount = () => thumbnails().filter((item) => item.getAttribute('aria-busy') === 'false')

function type(value: string) {
  act(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set
    setter?.call(textarea(), value)
    textarea().dispatchEvent(new Event('input', { bubbles: true }))
  })
}

function pressEnter(key = 'Enter') {
  act(() => {
    textarea().dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
  })
}

describe('images in the chat input', () => {
  it('uploads a chosen image at once, shows it, and sends it with the text', async () => {
    holdUploads = true
    const onSend = vi.fn()
    const container = render(<Harness onSend={onSend} />)
    chooseFiles(container, [sampleImageFile('png', 'sketch.png')])
    await until(() => uploads.length === 1)
    expect(thumbnails()[0]?.getAttribute('aria-busy')).toBe('true')
    expect(container.querySelector('[data-testid="draft-image"] img')?.getAttribute('src')).toMatch(
      /^blob:/,
    )
    act(() =>
      uploads[0]?.answer(
        json({ id: 'image-9', media_type: 'image/png', width: 7, height: 5, size: 90 }),
      ),
    )
    await until(() => readyCount().length === 1)
    expect(container.querySelector('[data-testid="draft-image"] img')?.getAttribute('alt')).toBe(
      'Attached image 1 of 1, PNG 7 × 5',
    )
    type('  Like this one  ')
    pressEnter()
    expect(onSend).toHaveBeenCalledWith('Like this one', [
      { id: 'image-9', media_type: 'image/png', width: 7, height: 5, size: 90 },
    ])
    expect(thumbnails()).toHaveLength(0)
  })

  it('refuses an SVG named .png before uploading it, in the server’s words', async () => {
    const container = render(<Harness onSend={() => {}} />)
    chooseFiles(container, [svgNamedPng()])
    await until(() => alerts().includes(IMAGE_TYPE_MESSAGE))
    expect(thumbnails()).toHaveLength(0)
    expect(uploads).toHaveLength(0)
  })

  it('shows the server’s refusal and does not keep the image', async () => {
    holdUploads = true
    const container = render(<Harness onSend={() => {}} />)
    chooseFiles(container, [sampleImageFile('jpeg')])
    await until(() => uploads.length === 1)
    act(() => uploads[0]?.answer(json({ error: IMAGE_TOO_LARGE_MESSAGE }, 413)))
    await until(() => alerts().includes(IMAGE_TOO_LARGE_MESSAGE))
    expect(thumbnails()).toHaveLength(0)
  })

  it('takes four images a message and says so of the fifth', async () => {
    const container = render(<Harness onSend={() => {}} />)
    chooseFiles(container, [sampleImageFile('png'), sampleImageFile('gif')])
    await until(() => readyCount().length === 2)
    chooseFiles(container, [
      sampleImageFile('jpeg'),
      sampleImageFile('webpLossy'),
      sampleImageFile('png'),
    ])
    await until(() => readyCount().length === 4)
    expect(alerts()).toContain('At most 4 images per message')
    expect(uploads).toHaveLength(4)
  })

  it('waits for the uploads, and wants text with the images', async () => {
    holdUploads = true
    const onSend = vi.fn()
    const container = render(<Harness onSend={onSend} />)
    chooseFiles(container, [sampleImageFile('png')])
    await until(() => uploads.length === 1)
    type('Here')
    pressEnter()
    expect(alerts()).toContain('Wait for the images to finish uploading')
    const upload = uploads[0] as Upload
    act(() =>
      upload.answer(
        json({ id: 'image-1', media_type: 'image/png', width: 7, height: 5, size: 90 }),
      ),
    )
    await until(() => readyCount().length === 1)
    type('   ')
    act(() => buttonNamed('Send message').click())
    expect(alerts()).toContain('Add a message to send with the images')
    expect(onSend).not.toHaveBeenCalled()
    expect(thumbnails()).toHaveLength(1)
  })

  it('removes an image with its button', async () => {
    const container = render(<Harness onSend={() => {}} />)
    chooseFiles(container, [sampleImageFile('png'), sampleImageFile('gif')])
    await until(() => readyCount().length === 2)
    act(() => buttonNamed('Remove image', thumbnails()[0] as Element).click())
    expect(thumbnails()).toHaveLength(1)
    expect(thumbnails()[0]?.querySelector('img')?.getAttribute('alt')).toBe(
      'Attached image 1 of 1, GIF 1 × 1',
    )
  })

  it('attaches pasted and dropped images; a paste with text stays a text paste', async () => {
    render(<Harness onSend={() => {}} />)
    expect(pasteFiles(textarea(), [sampleImageFile('png')]).defaultPrevented).toBe(true)
    await until(() => readyCount().length === 1)
    expect(pasteFiles(textarea(), [sampleImageFile('png')], 'A1\tB1').defaultPrevented).toBe(false)
    dropFiles(textarea(), [sampleImageFile('jpeg')])
    await until(() => readyCount().length === 2)
    expect(uploads).toHaveLength(2)
  })

  it('does not send images to a model that cannot read them, and says which can', async () => {
    const onSend = vi.fn()
    const refusal =
      'Grok Code cannot read images. Choose a model that can, such as Claude Haiku 4.5.'
    const container = render(<Harness onSend={onSend} imagesRefusal={refusal} />)
    chooseFiles(container, [sampleImageFile('png')])
    await until(() => readyCount().length === 1)
    type('What is wrong here?')
    pressEnter()
    expect(alerts()).toContain(refusal)
    expect(onSend).not.toHaveBeenCalled()
    // Text alone goes to that model as before.
    act(() => buttonNamed('Remove image').click())
    pressEnter()
    expect(onSend).toHaveBeenCalledWith('What is wrong here?', [])
  })

  it('holds images while a run is active; text alone still queues', async () => {
    const onSend = vi.fn()
    const container = render(<Harness onSend={onSend} isRunning />)
    chooseFiles(container, [sampleImageFile('png')])
    await until(() => readyCount().length === 1)
    type('And this')
    expect(buttonNamed('Queue message').disabled).toBe(true)
    expect(container.querySelector('[role="status"]')?.textContent).toBe(
      'Images can be sent once the current run ends.',
    )
    pressEnter()
    expect(onSend).not.toHaveBeenCalled()
    act(() => buttonNamed('Remove image').click())
    pressEnter()
    expect(onSend).toHaveBeenCalledWith('And this', [])
  })

  it('keeps Escape for the chat while images are attached', async () => {
    const onEscape = vi.fn()
    const container = render(<Harness onSend={() => {}} onEscape={onEscape} />)
    chooseFiles(container, [sampleImageFile('png')])
    await until(() => readyCount().length === 1)
    pressEnter('Escape')
    expect(onEscape).toHaveBeenCalledOnce()
    expect(thumbnails()).toHaveLength(1)
  })
})
