import { boxChromiumInstalled } from '@sprout/devbox/box-chromium.ts'
import type { BrowserToolOutput } from '@sprout/protocol/tool-formats/browser.ts'
import { describe, expect, it } from 'vitest'
import { sendMessage, setUpChatApplication, storedEnvelopes } from '../testing/chat-client.ts'

// docs/product/tool-calls.md "browser": a builder run's call opens the app in its box; the chat
// gets the page and the screenshot as the conversation's image, the model the screenshot too.

describe.skipIf(!boxChromiumInstalled())('the browser tool in a run', { timeout: 120_000 }, () => {
  const chat = setUpChatApplication({ environment: { CHECKS: 'off' } })

  it('opens the app, keeps the screenshot with the conversation and shows it to the model', async () => {
    chat.fake.push(
      { blocks: [{ type: 'tool-call', name: 'browser', input: { path: '/' } }] },
      { blocks: [{ type: 'text', text: 'The page works.' }] },
    )
    const sent = await sendMessage(chat, {
      message: 'Does the page load?',
      model: 'claude-sonnet-4-5',
    })
    await chat.harness.created.conversations.runs.settled(sent.conversation_id)
    const envelopes = await storedEnvelopes(chat.harness, sent.conversation_id)
    const output = (
      envelopes.find(({ chunk }) => chunk.type === 'tool-output-available')?.chunk as
        | { output: BrowserToolOutput }
        | undefined
    )?.output
    expect(output?.snapshot).toContain('heading "Your app starts here."')
    expect(output?.screenshot).toMatchObject({ media_type: 'image/png', width: 1280, height: 800 })
    // The output names the screenshot; its bytes are never in the history.
    expect(JSON.stringify(output).length).toBeLessThan(10_000)

    const imagePath = `/api/images/${output?.screenshot?.id}`
    const image = await chat.harness.request(imagePath, {
      user: chat.actor.user,
      headers: { 'organization-id': chat.actor.organizationId },
    })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    const outsider = await chat.harness.signUp()
    const outsiderOrganization = await chat.harness.createOrganization(outsider)
    const refused = await chat.harness.request(imagePath, {
      user: outsider,
      headers: { 'organization-id': outsiderOrganization },
    })
    expect(refused.status).toBe(404)

    // Sonnet reads images: the tool result carries the screenshot after the text.
    const toModel = JSON.stringify(chat.fake.requests.at(-1)?.body)
    expect(toModel).toContain('Accessibility snapshot:')
    expect(toModel).toContain('"media_type":"image/png"')
  })
})
