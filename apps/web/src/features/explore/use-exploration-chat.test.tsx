import { act } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sampleImageFile, uploadAnswer } from '../../testing/image-files.ts'
import { cleanup, render, until } from '../../testing/render.tsx'
import { type ExplorationChat, useExplorationChat } from './use-exploration-chat.ts'

// docs/product/images.md "Sending": the exploration chat sends a message's images by their upload
// ids and keeps the whole draft when the send fails.

type Call = { path: string; body: unknown }
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

let messages: Call[] = []
let messageAnswer: () => Response = () => json({ id: 'x1', run_id: 'run-1' })

beforeEach(() => {
  messages = []
  messageAnswer = () => json({ id: 'x1', run_id: 'run-1' })
  vi.stubGlobal('fetch', async (path: string, init: RequestInit = {}) => {
    if (path === '/api/images') return json(await uploadAnswer(init.body as Blob), 201)
    if (path.endsWith('/listen')) {
      // Open, and quiet: the answer's events are not what these tests are about.
      return new Response(new ReadableStream(), {
        headers: { 'Content-Type': 'text/event-stream' },
      })
    }
    if (path.endsWith('/message')) {
      messages.push({ path, body: JSON.parse(init.body as string) })
      return messageAnswer()
    }
    return json({ error: 'Not found' }, 404)
  })
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

let chat: ExplorationChat
function Harness() {
  chat = useExplorationChat('x1')
  return null
}

async function attachImage() {
  render(<Harness />)
  act(() => chat.attachments.add([sampleImageFile('png')]))
  await until(() => chat.attachments.items[0]?.image != null)
  return chat.attachments.items.flatMap((item) => (item.image ? [item.image] : []))
}

describe("the exploration chat's images", () => {
  it('sends the upload ids with the text and shows the images at once', async () => {
    const images = await attachImage()
    act(() => {
      chat.send('Like this', 'demo', images)
    })
    expect(chat.state.blocks[0]?.images).toEqual(images)
    expect(chat.attachments.items).toEqual([])
    await until(() => messages.length === 1)
    expect(messages[0]?.body).toMatchObject({
      message: 'Like this',
      model: 'demo',
      images: images.map((image) => image.id),
    })
  })

  it('keeps the text and the images when the send fails', async () => {
    messageAnswer = () => json({ error: 'An attached image was not found; attach it again' }, 404)
    const images = await attachImage()
    act(() => {
      chat.send('Like this', 'demo', images)
    })
    await until(() => chat.draft === 'Like this')
    expect(chat.attachments.items.map((item) => item.image)).toEqual(images)
    expect(chat.notice).toBe('An attached image was not found; attach it again')
  })
})
