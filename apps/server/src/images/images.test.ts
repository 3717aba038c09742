// Long file: one suite follows an image from its upload through two providers' wire formats to
// its deletion, sharing one server and its fake providers.
// Images attached to chat messages (docs/product/images.md), through the real routes, with fake
// provider servers speaking Anthropic's and OpenAI's wire formats.
import { existsSync } from 'node:fs'
import { utimes } from 'node:fs/promises'
import path from 'node:path'
import { startFakeOpenAIChat } from '@sprout/agent/testing/fake-openai-chat.ts'
import type { FakeProviderServer } from '@sprout/agent/testing/fake-provider-server.ts'
import {
  CHAT_IMAGE_MAX_BYTES,
  CHAT_IMAGES_UNSENT_MAX,
  IMAGE_DIMENSIONS_MESSAGE,
  IMAGE_TOO_LARGE_MESSAGE,
  IMAGE_TYPE_MESSAGE,
  IMAGE_UNREADABLE_MESSAGE,
  IMAGES_NOT_FOUND_MESSAGE,
  IMAGES_UNSENT_MESSAGE,
} from '@sprout/protocol/api/images.ts'
import { sampleBytes } from '@sprout/protocol/images/testing/image-samples.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp, TestUser } from '../testing/app-harness.ts'
import {
  type ChatActor,
  call,
  isRunEnd,
  readExplorationStream,
  startChatHarness,
} from '../testing/chat-client.ts'
import { imagesDirOf } from './image-files.ts'

const png = Buffer.from(sampleBytes('png'))
const jpeg = Buffer.from(sampleBytes('jpeg'))

describe('chat images', { timeout: 90_000 }, () => {
  let fake: FakeProviderServer
  let openai: FakeProviderServer
  let harness: TestApp
  let actor: ChatActor
  let outsider: ChatActor

  beforeAll(async () => {
    openai = await startFakeOpenAIChat([])
    ;({ fake, harness, actor } = await startChatHarness({
      maxRetries: 0,
      environment: {
        OPENAI_COMPATIBLE_BASE_URL: openai.baseUrl,
        OPENAI_COMPATIBLE_MODELS: 'local-text,local-vision',
        OPENAI_COMPATIBLE_IMAGE_MODELS: 'local-vision',
      },
    }))
    const other = await harness.signUp()
    outsider = { harness, user: other, organizationId: await harness.createOrganization(other) }
  })
  afterAll(async () => {
    await harness.close()
    await fake.close()
    await openai.close()
  })

  const upload = async (bytes: Buffer, as: ChatActor = actor, type = 'image/png') => {
    const response = await harness.request('/api/images', {
      method: 'POST',
      user: as.user,
      headers: { 'organization-id': as.organizationId, 'content-type': type },
      body: new Uint8Array(bytes),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const imageCount = async () => {
    const { rows } = await harness.database.execute(
      'select count(*)::int as count from chat_images',
    )
    return Number(rows[0]?.count)
  }
  const listen = (explorationId: string, until: (envelope: StreamEnvelope) => boolean) =>
    readExplorationStream(actor, explorationId, until)
  const getImage = (id: string, user: TestUser) => harness.request(`/api/images/${id}`, { user })

  it('stores an image read by its content and gives it back to members only, as an image', async () => {
    const uploaded = await upload(png, actor, 'application/octet-stream')
    expect(uploaded).toMatchObject({
      status: 201,
      body: { media_type: 'image/png', width: 7, height: 5, size: png.length },
    })
    const id = String(uploaded.body.id)
    const read = await getImage(id, actor.user)
    expect(read.status).toBe(200)
    expect(read.headers.get('content-type')).toBe('image/png')
    expect(read.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await read.arrayBuffer()).equals(png)).toBe(true)
    // Another organization's member, and nobody signed in.
    const foreign = await getImage(id, outsider.user)
    expect(foreign.status).toBe(404)
    expect(await foreign.text()).not.toContain('PNG')
    expect((await harness.request(`/api/images/${id}`)).status).toBe(401)
    // Unknown, a NUL, a lone surrogate's bytes, far too long.
    for (const bad of ['no-such-image', '%00', '%ED%A0%80', 'x'.repeat(5000)]) {
      expect([400, 404]).toContain((await getImage(bad, actor.user)).status)
    }
  })

  it('refuses what is not a PNG, JPEG, WebP or GIF, or too large, and stores nothing', async () => {
    const before = await imageCount()
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    )
    expect(await upload(svg)).toEqual({ status: 415, body: { error: IMAGE_TYPE_MESSAGE } })
    expect(await upload(Buffer.from('%PDF-1.7\n'), actor, 'image/jpeg')).toMatchObject({
      status: 415,
    })
    expect(await upload(png.subarray(0, 20))).toEqual({
      status: 400,
      body: { error: IMAGE_UNREADABLE_MESSAGE },
    })
    // A few bytes that would decode into 40 GB of pixels.
    const bomb = Buffer.from(png)
    bomb.writeUInt32BE(100_000, 16)
    bomb.writeUInt32BE(100_000, 20)
    expect(await upload(bomb)).toEqual({ status: 400, body: { error: IMAGE_DIMENSIONS_MESSAGE } })
    const tooLong = Buffer.concat([png, Buffer.alloc(CHAT_IMAGE_MAX_BYTES)])
    expect(await upload(tooLong)).toEqual({ status: 413, body: { error: IMAGE_TOO_LARGE_MESSAGE } })
    expect(await upload(Buffer.alloc(0))).toMatchObject({ status: 415 })
    expect(await imageCount()).toBe(before)
  })

  it('sends the image to Anthropic as an image block, keeps a reference in the history, and sends it again', async () => {
    const image = await upload(png)
    fake.push({ blocks: [{ type: 'text', text: 'A small green rectangle.' }] })
    const created = await call<{ id: string; run_id: string }>(actor, '/api/explorations', {
      message: 'What is in this picture?',
      model: 'claude-haiku-4-5',
      images: [image.body.id],
    })
    expect(created.status).toBe(201)
    const { envelopes } = await listen(created.body.id, isRunEnd)
    const echo = envelopes.find((envelope) => envelope.chunk.type === 'data-user-message')
    expect(echo?.chunk).toMatchObject({
      data: {
        text: 'What is in this picture?',
        images: [{ id: image.body.id, width: 7, height: 5 }],
      },
    })
    const sent = JSON.stringify(fake.requests.at(-1)?.body)
    expect(sent).toContain('"type":"image"')
    expect(sent).toContain(`"media_type":"image/png","data":"${png.toString('base64')}"`)
    // Stored by reference, never as bytes.
    const { rows } = await harness.database.execute(
      'select message::text as message from messages where conversation_id = $1',
      [created.body.id],
    )
    const stored = rows.map((row) => String(row.message)).join('\n')
    expect(stored).toContain(`sprout-image:${image.body.id}`)
    expect(stored).not.toContain(png.toString('base64'))
    // The next message's request carries the earlier image again, read from its reference.
    fake.push({ blocks: [{ type: 'text', text: 'Still green.' }] })
    const next = await call(actor, `/api/explorations/${created.body.id}/message`, {
      message: 'And now?',
      model: 'claude-haiku-4-5',
    })
    expect(next.status).toBe(200)
    await listen(
      created.body.id,
      (envelope) => isRunEnd(envelope) && envelope.seq > (envelopes.at(-1)?.seq ?? 0),
    )
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain(png.toString('base64'))
  })

  it('sends images to an OpenAI-compatible model that reads them as image_url data URLs', async () => {
    const first = await upload(png)
    const second = await upload(jpeg, actor, 'image/jpeg')
    openai.push({ blocks: [{ type: 'text', text: 'Two images.' }] })
    const created = await call<{ id: string }>(actor, '/api/explorations', {
      message: 'Compare these',
      model: 'local-vision',
      images: [first.body.id, second.body.id],
    })
    expect(created.status).toBe(201)
    await listen(created.body.id, isRunEnd)
    const sent = JSON.stringify(openai.requests.at(-1)?.body)
    expect(sent).toContain(`data:image/png;base64,${png.toString('base64')}`)
    expect(sent).toContain(`data:image/jpeg;base64,${jpeg.toString('base64')}`)
  })

  it('refuses images for a model that cannot read them, naming one that can, before any run', async () => {
    const image = await upload(png)
    const requestsBefore = openai.requests.length
    const refused = await call(actor, '/api/explorations', {
      message: 'Look',
      model: 'local-text',
      images: [image.body.id],
    })
    expect(refused).toEqual({
      status: 400,
      body: {
        error: 'local-text cannot read images. Choose a model that can, such as Claude Haiku 4.5.',
      },
    })
    expect(openai.requests.length).toBe(requestsBefore)
  })

  it("refuses another person's, another organization's or an already sent image as not found, making no conversation", async () => {
    const theirs = await upload(png, outsider)
    const countConversations = async () => {
      const { rows } = await harness.database.execute(
        'select count(*)::int as count from conversations where organization_id = $1',
        [actor.organizationId],
      )
      return Number(rows[0]?.count)
    }
    const before = await countConversations()
    const foreign = await call(actor, '/api/explorations', {
      message: 'Steal it',
      model: 'demo',
      images: [theirs.body.id],
    })
    expect(foreign).toEqual({ status: 404, body: { error: IMAGES_NOT_FOUND_MESSAGE } })
    const mine = await upload(png)
    const sent = await call<{ id: string }>(actor, '/api/explorations', {
      message: 'Mine',
      model: 'demo',
      images: [mine.body.id],
    })
    expect(sent.status).toBe(201)
    await listen(sent.body.id, isRunEnd)
    const again = await call(actor, '/api/explorations', {
      message: 'Again, elsewhere',
      model: 'demo',
      images: [mine.body.id],
    })
    expect(again.status).toBe(404)
    expect(await countConversations()).toBe(before + 1)
    const tooMany = await call(actor, '/api/explorations', {
      message: 'Five',
      model: 'demo',
      images: ['a', 'b', 'c', 'd', 'e'],
    })
    expect(tooMany.status).toBe(400)
  })

  it('bounds the uploads one person has waiting to be sent, and lets them go after an hour', async () => {
    const person = await harness.signUp()
    const own: ChatActor = {
      harness,
      user: person,
      organizationId: await harness.createOrganization(person),
    }
    const ids: string[] = []
    for (let index = 0; index < CHAT_IMAGES_UNSENT_MAX; index++) {
      const uploaded = await upload(png, own)
      expect(uploaded.status).toBe(201)
      ids.push(String(uploaded.body.id))
    }
    const before = await imageCount()
    expect(await upload(png, own)).toEqual({ status: 429, body: { error: IMAGES_UNSENT_MESSAGE } })
    expect(await imageCount()).toBe(before)
    // Sent with a message, they no longer count.
    const sent = await call<{ id: string }>(own, '/api/explorations', {
      message: 'These four',
      model: 'demo',
      images: ids.slice(0, 4),
    })
    expect(sent.status).toBe(201)
    expect((await upload(png, own)).status).toBe(201)
    // An hour on, the unsent ones go at the next upload, their files with them.
    await harness.database.execute(
      `update chat_images set created_at = now() - interval '2 hours'
       where user_id = $1 and conversation_id is null`,
      [person.id],
    )
    const stale = await imageFile(String(ids.at(-1)))
    expect((await upload(png, own)).status).toBe(201)
    const { rows } = await harness.database.execute(
      'select count(*)::int as count from chat_images where user_id = $1 and conversation_id is null',
      [person.id],
    )
    expect(rows[0]?.count).toBe(1)
    expect(existsSync(stale)).toBe(false)
  })

  it('has the Demo model tell the type and size of each image', async () => {
    const first = await upload(png)
    const second = await upload(jpeg, actor, 'image/jpeg')
    const created = await call<{ id: string }>(actor, '/api/explorations', {
      message: 'What do you see?',
      model: 'demo',
      images: [first.body.id, second.body.id],
    })
    const { envelopes } = await listen(created.body.id, isRunEnd)
    const text = envelopes
      .map((envelope) => (envelope.chunk.type === 'text-delta' ? envelope.chunk.delta : ''))
      .join('')
    expect(text).toBe(
      'I can see 2 images: a PNG image of 7 × 5 pixels and a JPEG image of 13 × 9 pixels.',
    )
  })

  /** The image's file as the sweep sees it once its grace has passed. */
  const imageFile = async (id: string) => {
    const file = path.join(imagesDirOf(harness.config), id)
    const past = new Date(Date.now() - 120_000)
    await utimes(file, past, past).catch(() => undefined)
    return file
  }

  it("goes with its uploader's account, file and all", async () => {
    const leaving = await harness.signUp()
    const organizationId = await harness.createOrganization(leaving)
    const mine = await upload(png, { harness, user: leaving, organizationId })
    const id = String(mine.body.id)
    expect((await getImage(id, leaving)).status).toBe(200)
    const file = await imageFile(id)
    expect(existsSync(file)).toBe(true)
    const deleted = await harness.request('/api/account', {
      method: 'DELETE',
      user: leaving,
      body: JSON.stringify({ confirm: leaving.email }),
    })
    expect(deleted.status).toBe(200)
    const { rows } = await harness.database.execute('select id from chat_images where id = $1', [
      id,
    ])
    expect(rows).toEqual([])
    expect(await harness.created.images.sweep()).toBeGreaterThanOrEqual(1)
    expect(existsSync(file)).toBe(false)
  })

  it('goes with the application whose conversation it was sent in', async () => {
    const created = await call<{ id: string }>(actor, '/api/applications', {
      initial_prompt: 'An app to delete',
      model: 'demo',
    })
    const applicationId = created.body.id
    const image = await upload(png)
    const id = String(image.body.id)
    const sent = await call<{ conversation_id: string }>(
      actor,
      `/api/demo/applications/${applicationId}/message`,
      { message: 'Look at this', model: 'demo', images: [id] },
    )
    expect(sent.status).toBe(200)
    await harness.created.conversations.runs.settled(sent.body.conversation_id)
    const file = await imageFile(id)
    expect(
      (await call(actor, `/api/applications/${applicationId}`, undefined, 'DELETE')).status,
    ).toBe(200)
    expect((await getImage(id, actor.user)).status).toBe(404)
    await harness.created.images.sweep()
    expect(existsSync(file)).toBe(false)
  })
})
