// Issue 20 through the real run path: after an interrupt, the retry (continue) of a Demo build, or
// a message queued during it, finishes the app instead of getting the Demo model's help text.
// The build is held with a test gate (docs/decisions/013-test-gates.md) after its plan.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { stagedMessages } from '@sprout/db/schema/staged-messages.ts'
import type { ModelMessage } from 'ai'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storedEnvelopes } from '../testing/chat-client.ts'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { loadHistory } from './conversation-records.ts'

const request = 'Build a recipe tracker with ingredients and ratings'
const doneText = 'Done! **Recipe Tracker** is in `src/App.tsx`'
const helpText = 'I am the **Demo model**'

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const textOf = (message: ModelMessage) =>
  typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => (part.type === 'text' ? part.text : '')).join('')

const toolCallsOf = (history: ModelMessage[]) =>
  history.flatMap((message) =>
    message.role === 'assistant' && typeof message.content !== 'string'
      ? message.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolName] : []))
      : [],
  )

describe('a Demo build after an interrupt or a queued message', { timeout: 180_000 }, () => {
  let gates: string
  beforeAll(async () => {
    gates = await mkdtemp(path.join(os.tmpdir(), 'sprout-resume-gates-'))
  })
  afterAll(() => rm(gates, { recursive: true, force: true }))
  const setup = useOrganizationHarness({
    environment: () => ({ DEMO_TEST_GATES_DIR: gates }),
    organizationName: 'Resume org',
  })
  let applicationId: string
  beforeAll(async () => {
    applicationId = await setup.createReadyApplication('Recipes')
  })

  const post = async (pathname: string, body: unknown) => {
    const response = await setup.request(`/api/demo/applications/${applicationId}${pathname}`, {
      method: 'POST',
      body: JSON.stringify(body),
    })
    expect(response.status, pathname).toBe(200)
    return (await response.json()) as Record<string, unknown>
  }
  const settled = (conversationId: string) =>
    setup.harness.created.conversations.runs.settled(conversationId)

  /** Starts the gated build and waits until it has planned (one tool result) and is held. */
  const startHeldBuild = async (gate: string) => {
    const sent = await post('/message', {
      message: `${request} [test-gate:${gate}]`,
      model: 'demo',
    })
    const conversationId = String(sent.conversation_id)
    await waitFor(async () => {
      const envelopes = await storedEnvelopes(setup.harness, conversationId)
      return envelopes.some((envelope) => envelope.chunk.type === 'tool-output-available')
    }, 'the plan')
    return conversationId
  }

  const expectFinished = async (conversationId: string) => {
    const history = await loadHistory(setup.harness.database.db, conversationId)
    const answers = history.filter((message) => message.role === 'assistant').map(textOf)
    expect(answers.at(-1)).toContain(doneText)
    expect(answers.join('\n')).not.toContain(helpText)
    // Planned once, written once: the build went on, it did not start over.
    expect(toolCallsOf(history)).toEqual(['todos', 'write_file', 'todos', 'shell_exec', 'todos'])
    const box = setup.harness.devboxes.box(applicationId)
    expect(await box?.files.read('src/App.tsx')).toContain('const title = "Recipe Tracker"')
  }

  it('the retry after an interrupt finishes the build', async () => {
    const conversationId = await startHeldBuild('retry')
    expect(await post(`/interrupt?conversation_id=${conversationId}`, {})).toEqual({
      interrupted: true,
    })
    await settled(conversationId)
    await post(`/continue?conversation_id=${conversationId}`, {})
    await settled(conversationId)
    await expectFinished(conversationId)
  })

  it('a message sent after an interrupt finishes the build', async () => {
    const conversationId = await startHeldBuild('follow-up')
    await post(`/interrupt?conversation_id=${conversationId}`, {})
    await settled(conversationId)
    await post('/message', {
      message: 'Also show the total at the bottom',
      model: 'demo',
      conversation_id: conversationId,
    })
    await settled(conversationId)
    await expectFinished(conversationId)
  })

  it('a message queued during the build is taken and the build goes on to its end', async () => {
    const conversationId = await startHeldBuild('queued')
    // The call answers once the run has taken the message (or handed it back).
    const staging = post('/stage-message', {
      message: 'Also make the header green',
      conversation_id: conversationId,
    })
    await waitFor(async () => {
      const rows = await setup.harness.database.db
        .select({ status: stagedMessages.status })
        .from(stagedMessages)
        .where(eq(stagedMessages.conversationId, conversationId))
      return rows.some((row) => row.status === 'pending')
    }, 'the queued message')
    await writeFile(path.join(gates, 'queued'), '')
    expect(await staging).toEqual({ status: 'sent' })
    await settled(conversationId)
    const history = await loadHistory(setup.harness.database.db, conversationId)
    expect(history.filter((message) => message.role === 'user').map(textOf)).toEqual([
      `${request} [test-gate:queued]`,
      'Also make the header green',
    ])
    await expectFinished(conversationId)
  })
})
