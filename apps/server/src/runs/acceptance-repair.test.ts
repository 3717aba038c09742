import { describe, expect, it } from 'vitest'
import { sendMessage, setUpChatApplication, storedEnvelopes } from '../testing/chat-client.ts'
import { finalChecks, settleAllRuns } from '../testing/conversation-checks.ts'

// docs/product/checks.md "The Demo model": "Build a guest book with a test" writes an acceptance
// test and a bug; the acceptance part fails with its screenshot, the one repair turn gets it as an
// image and fixes the bug, and the repair's check passes.

describe('acceptance tests after a run, and their repair', { timeout: 300_000 }, () => {
  const chat = setUpChatApplication({
    environment: { CHECKS: 'on', ACCEPTANCE_TESTS: 'on' },
  })

  it('the Demo’s guest book fails its test with a screenshot, and the repair makes it pass', async () => {
    const sent = await sendMessage(chat, {
      message: 'Build a guest book with a test',
      model: 'demo',
    })
    await settleAllRuns(chat, sent.conversation_id)
    const envelopes = await storedEnvelopes(chat.harness, sent.conversation_id)
    const [first, second] = finalChecks(envelopes)
    const acceptance = first?.parts.find((part) => part.name === 'acceptance')
    expect(acceptance?.status, JSON.stringify(first)).toBe('failed')
    const [failing] = acceptance?.problems ?? []
    expect(failing).toMatchObject({ file: 'tests/acceptance/guest-book.spec.ts', line: 9 })
    expect(failing?.message).toMatch(/^signs the guest book: expect\(locator\)\.toBeVisible\(\)/)
    expect(failing?.screenshot).toMatchObject({ width: 1280, height: 800 })
    // The repair turn: its message names the test, with the screenshot as its image.
    const repairMessage = envelopes.find(({ chunk }) => {
      const data = (chunk as { data?: { repair?: { title: string } } }).data
      return chunk.type === 'data-user-message' && data?.repair
    })?.chunk as { data: { repair: { title: string }; text?: string; images?: unknown[] } }
    expect(repairMessage.data.repair.title).toBe('Fixing 1 failing acceptance test…')
    expect(repairMessage.data.images).toHaveLength(1)
    const said = envelopes
      .flatMap(({ chunk }) =>
        chunk.type === 'text-delta' ? [(chunk as { delta: string }).delta] : [],
      )
      .join('')
    expect(said).toContain('The screenshot shows the page after signing without the new entry')
    expect(second?.state, JSON.stringify(second)).toBe('passed')
    expect(second?.parts.find((part) => part.name === 'acceptance')?.status).toBe('passed')
  })
})
