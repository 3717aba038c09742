import { runs } from '@sprout/db/schema/runs.ts'
import type { CheckReport } from '@sprout/protocol/api/checks.ts'
import type { StreamEnvelope } from '@sprout/protocol/stream/stream-envelope.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  type ChatApplication,
  call,
  listenToConversation,
  sendMessage,
  setUpChatApplication,
  storedEnvelopes,
} from '../testing/chat-client.ts'
import { finalChecks, settleAllRuns } from '../testing/conversation-checks.ts'

// docs/product/checks.md: the check after a run that changed files, and its one repair turn.

const typeError = '  const label: string = count'

const repairTitles = (envelopes: StreamEnvelope[]) =>
  envelopes.flatMap(({ chunk }) => {
    const data = (chunk as { data?: { repair?: { title: string } } }).data
    return chunk.type === 'data-user-message' && data?.repair ? [data.repair.title] : []
  })

async function runsOf(chat: ChatApplication, conversationId: string) {
  return chat.harness.created.db
    .select({ id: runs.id, repairOf: runs.repairOf, status: runs.status })
    .from(runs)
    .where(eq(runs.conversationId, conversationId))
    .orderBy(runs.startedAt)
}

describe('checks after runs, and the one repair', { timeout: 240_000 }, () => {
  // The acceptance part has its own tests (checks/acceptance.test.ts, acceptance-repair.test.ts).
  const chat = setUpChatApplication({ environment: { CHECKS: 'on' } })

  it('the Demo model’s type error is found, repaired once, and the repair’s check passes', async () => {
    const sent = await sendMessage(chat, {
      message: 'Build a counter with a type error',
      model: 'demo',
    })
    await settleAllRuns(chat, sent.conversation_id)
    const envelopes = await storedEnvelopes(chat.harness, sent.conversation_id)
    const [first, second] = finalChecks(envelopes)
    expect(first?.state).toBe('failed')
    const types = first?.parts.find((part) => part.name === 'types')
    expect(types?.problems[0]).toMatchObject({ file: 'src/App.tsx', line: 5 })
    expect(types?.problems[0]?.message).toContain(
      "Type 'number' is not assignable to type 'string'",
    )
    expect(repairTitles(envelopes)).toEqual(['Fixing 1 type error…'])
    expect(second?.state).toBe('passed')
    const [run, repair, extra] = await runsOf(chat, sent.conversation_id)
    expect(repair?.repairOf).toBe(run?.id)
    expect(extra).toBeUndefined()
    // The header's call answers the last check.
    const latest = await call<{ check: CheckReport & { runId: string } }>(
      chat.actor,
      `/api/applications/${chat.applicationId}/checks/latest`,
    )
    expect(latest.body.check).toMatchObject({ id: second?.id, state: 'passed', runId: repair?.id })
  })

  it('a repair that fixes nothing leaves the problems shown and is never repaired again', async () => {
    // The provider's model writes the type error, then answers the repair without fixing it.
    chat.fake.push(
      {
        blocks: [
          {
            type: 'tool-call',
            name: 'str_replace',
            input: {
              path: 'src/App.tsx',
              old_str: '  const label: string = String(count)',
              new_str: typeError,
            },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'Broke it again.' }] },
      { blocks: [{ type: 'text', text: 'I could not fix it.' }] },
    )
    const sent = await sendMessage(chat, {
      message: 'Make the label a number again',
      model: 'claude-sonnet-4-5',
    })
    await settleAllRuns(chat, sent.conversation_id)
    // The repair changed nothing: its own check finds the same problem, and that is the end.
    const envelopes = await storedEnvelopes(chat.harness, sent.conversation_id)
    const reports = finalChecks(envelopes)
    expect(reports.map((report) => report.state)).toEqual(['failed', 'failed'])
    expect(repairTitles(envelopes)).toEqual(['Fixing 1 type error…'])
    const conversationRuns = await runsOf(chat, sent.conversation_id)
    expect(conversationRuns).toHaveLength(2)
    expect(conversationRuns[1]?.repairOf).toBe(conversationRuns[0]?.id)
    expect(chat.fake.requests).toHaveLength(3)
  })

  it('with the organization’s repairs off, the problems stay shown and no repair starts', async () => {
    const settings = await call(
      chat.actor,
      `/api/organizations/${chat.actor.organizationId}/check-settings`,
      { autoRepair: false },
      'PUT',
    )
    expect(settings.body).toEqual({ autoRepair: false, installationAllows: true })
    // The last test left the type error committed: the run must change the file to be checked.
    const box = chat.harness.devboxes.box(chat.applicationId)
    await box?.files.write('src/App.tsx', 'export function App() {\n  return null\n}\n')
    await box?.checkpoint('A plain app')
    const sent = await sendMessage(chat, {
      message: 'Build a counter with a type error',
      model: 'demo',
    })
    await settleAllRuns(chat, sent.conversation_id)
    const envelopes = await storedEnvelopes(chat.harness, sent.conversation_id)
    expect(finalChecks(envelopes).map((report) => report.state)).toEqual(['failed'])
    expect(repairTitles(envelopes)).toEqual([])
    expect(await runsOf(chat, sent.conversation_id)).toHaveLength(1)
  })

  it('a run that breaks the build shows the build’s cause on the run (repairs off)', async () => {
    chat.fake.push(
      {
        blocks: [
          {
            type: 'tool-call',
            name: 'write_file',
            input: {
              path: 'src/App.tsx',
              content: "import './gone.ts'\nexport function App() {\n  return null\n}\n",
            },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'Done.' }] },
    )
    const sent = await sendMessage(chat, {
      message: 'Import the gone module',
      model: 'claude-sonnet-4-5',
    })
    await settleAllRuns(chat, sent.conversation_id)
    const [report] = finalChecks(await storedEnvelopes(chat.harness, sent.conversation_id))
    const build = report?.parts.find((part) => part.name === 'build')
    expect(build?.status).toBe('failed')
    expect(build?.problems[0]).toMatchObject({ file: 'src/App.tsx', line: 1 })
    expect(build?.problems[0]?.message).toMatch(/gone/)
  })

  it('run_checks checks during a run: the chat gets the report, the model its problems', async () => {
    chat.fake.push(
      { blocks: [{ type: 'tool-call', name: 'run_checks', input: {} }] },
      { blocks: [{ type: 'text', text: 'The build is broken.' }] },
    )
    const sent = await sendMessage(chat, {
      message: 'Is the app fine?',
      model: 'claude-sonnet-4-5',
    })
    await settleAllRuns(chat, sent.conversation_id)
    const envelopes = await storedEnvelopes(chat.harness, sent.conversation_id)
    const output = envelopes.find(({ chunk }) => chunk.type === 'tool-output-available')?.chunk as
      | { output: CheckReport }
      | undefined
    expect(output?.output).toMatchObject({ trigger: 'tool', state: 'failed' })
    const toModel = JSON.stringify(chat.fake.requests.at(-1)?.body)
    expect(toModel).toContain('The check found')
    expect(toModel).toContain('src/App.tsx:1:')
  })

  it('a run that changed no file is not checked', async () => {
    const sent = await sendMessage(chat, { message: 'roll 2d6', model: 'demo' })
    await settleAllRuns(chat, sent.conversation_id)
    const envelopes = await storedEnvelopes(chat.harness, sent.conversation_id)
    expect(finalChecks(envelopes)).toEqual([])
  })

  it('an interrupted run’s code is checked, and a retry after a stopped check is checked', async () => {
    const demo = `/api/demo/applications/${chat.applicationId}`
    const writeNote = (content: string) => ({
      blocks: [
        {
          type: 'tool-call' as const,
          name: 'write_file',
          input: { path: 'src/note.ts', content },
        },
      ],
    })
    // A run that wrote a file, then is interrupted: its code is checked all the same.
    chat.fake.push(
      writeNote('export const note = 1\n'),
      { blocks: [{ type: 'text', text: 'Still going…' }], holdOpen: true },
      { blocks: [{ type: 'text', text: 'Picked up again.' }] },
    )
    const sent = await sendMessage(chat, {
      message: 'Write a note slowly',
      model: 'claude-sonnet-4-5',
    })
    const conversationId = sent.conversation_id
    await listenToConversation(chat, conversationId, {
      after: 0,
      until: (envelope) => envelope.chunk.type === 'text-delta',
    })
    await call(chat.actor, `${demo}/interrupt`, { conversation_id: conversationId })
    // '(click to retry)' at once: the retry does not wait for the check, and changes nothing.
    const retried = await call(chat.actor, `${demo}/continue?conversation_id=${conversationId}`, {})
    expect(retried.status).toBe(200)
    await settleAllRuns(chat, conversationId)
    await chat.harness.created.conversations.runs.settled(conversationId)
    let reports = finalChecks(await storedEnvelopes(chat.harness, conversationId))
    for (
      let attempt = 0;
      attempt < 240 && reports.some((report) => report.state === 'running');
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      reports = finalChecks(await storedEnvelopes(chat.harness, conversationId))
    }
    // One check, of the code both runs leave, ended by itself: not 'The check was stopped.'
    expect(reports.map((report) => report.state)).toHaveLength(1)
    expect(reports[0]?.state).not.toBe('interrupted')
    expect(reports[0]?.state).not.toBe('running')

    // A check stopped with Escape: the next run is checked even though it changes no file.
    chat.fake.push(writeNote('export const note = 2\n'), {
      blocks: [{ type: 'text', text: 'Done.' }],
    })
    const before = (await storedEnvelopes(chat.harness, conversationId)).at(-1)?.seq ?? 0
    const second = await sendMessage(chat, {
      message: 'Change the note',
      model: 'claude-sonnet-4-5',
      conversationId,
    })
    await listenToConversation(chat, conversationId, {
      after: before,
      until: (envelope) =>
        envelope.chunk.type === 'data-checks' &&
        (envelope.chunk as { data: CheckReport }).data.parts.some(
          (part) => part.status === 'running',
        ),
    })
    await call(chat.actor, `${demo}/interrupt`, { conversation_id: conversationId })
    await settleAllRuns(chat, conversationId)
    const stopped = finalChecks(await storedEnvelopes(chat.harness, conversationId))
    expect(stopped.at(-1)?.state).toBe('interrupted')
    expect(second.run_id).toBeTruthy()
    chat.fake.push({ blocks: [{ type: 'text', text: 'Nothing to change.' }] })
    await sendMessage(chat, {
      message: 'Anything else?',
      model: 'claude-sonnet-4-5',
      conversationId,
    })
    await settleAllRuns(chat, conversationId)
    const last = finalChecks(await storedEnvelopes(chat.harness, conversationId)).at(-1)
    expect(last?.id).not.toBe(stopped.at(-1)?.id)
    expect(last?.state).not.toBe('interrupted')
  })
})
