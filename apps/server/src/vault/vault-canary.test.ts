import { randomBytes } from 'node:crypto'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  call,
  isRunEnd,
  listenToConversation,
  setUpChatApplication,
} from '../testing/chat-client.ts'
import { capturePrinted } from '../testing/printed-output.ts'
import { rawRequest } from '../testing/raw-request.ts'

const model = 'claude-sonnet-4-5'

/** A server route that prints the secret, at start and on every request, and fails with it. */
const loggingRoute = `import { Hono } from 'hono'

console.log('starting with', process.env.CANARY_TOKEN)
export const app = new Hono().basePath('/api')
app.get('/health', (c) => c.json({ ok: true }))
app.get('/canary', (c) => {
  console.log('the token is', process.env.CANARY_TOKEN)
  return c.json({ logged: true })
})
app.get('/fail', () => {
  throw new Error(\`failed with \${process.env.CANARY_TOKEN}\`)
})
app.onError((error, c) => {
  console.error(error)
  return c.json({ error: 'Internal server error' }, 500)
})
export default app
`

/**
 * docs/product/vault.md "Where values go": a unique value reaches the agent's commands, and then
 * appears in no answer, event, stored row (but its ciphertext), model request or log line.
 */
describe('a vault value reaches the commands and nothing else', { timeout: 180_000 }, () => {
  const canary = `canary-${randomBytes(16).toString('hex')}`
  const logged: string[] = []

  beforeAll(async () => {
    capturePrinted(logged)
  })
  afterAll(() => {
    vi.restoreAllMocks()
  })
  // After the spies, so they see the harness's logs from its start.
  const chat = setUpChatApplication({ maxRetries: 0 })

  it("is redacted from tool output, streamed pieces, the model's replies, server logs, stored events, history, deploy answers and model requests", async () => {
    const answers: string[] = []
    const set = await call(chat.actor, `/api/applications/${chat.applicationId}/vault`, {
      key: 'CANARY_TOKEN',
      value: canary,
    })
    expect(set.status).toBe(200)
    answers.push(JSON.stringify(set.body))
    answers.push(
      JSON.stringify(
        (await call(chat.actor, `/api/applications/${chat.applicationId}/vault`)).body,
      ),
    )

    const shell = (id: string, command: string) => ({
      type: 'tool-call' as const,
      id,
      name: 'shell_exec',
      input: { command, timeout: 10 },
    })
    chat.fake.push(
      {
        blocks: [
          { type: 'text', text: 'Trying the key.' },
          shell('echo', 'echo "token is $CANARY_TOKEN"'),
        ],
      },
      { blocks: [shell('env', 'env | sort')] },
      {
        // The value arrives in two pieces of output: split redaction still catches it.
        blocks: [
          shell(
            'split',
            // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion
            'v="$CANARY_TOKEN"; printf "%s" "${v:0:12}"; sleep 0.3; printf "%s\\n" "${v:12}"; test "$v" = "$CANARY_TOKEN" && echo same',
          ),
        ],
      },
      {
        blocks: [
          {
            type: 'tool-call',
            id: 'write',
            name: 'write_file',
            input: { path: 'server/app.ts', content: loggingRoute },
          },
          // The model repeats the value it was shown: in a tool's input, its reasoning, its reply.
          shell('literal', `test "$CANARY_TOKEN" = "${canary}" && echo matches`),
        ],
      },
      {
        blocks: [
          { type: 'thinking', text: `The key ${canary} is accepted.` },
          { type: 'text', text: `The key ${canary} works.` },
        ],
      },
    )
    // Within the run the model is sent its own replies as they were (a provider's signed
    // reasoning comes back unchanged); the requests before it repeated the value hold none.
    const requestsBeforeRepeat = chat.fake.requests.length + 4
    const sent = await call<{ conversation_id: string }>(
      chat.actor,
      `/api/demo/applications/${chat.applicationId}/message`,
      { message: 'Use my key', model },
    )
    expect(sent.status).toBe(200)
    answers.push(JSON.stringify(sent.body))
    const conversationId = sent.body.conversation_id
    const envelopes = await listenToConversation(chat, conversationId)
    const streamed = JSON.stringify(envelopes)

    // The commands saw the value: their output names it, redacted.
    expect(streamed).toContain('token is [secret CANARY_TOKEN]')
    expect(streamed).toContain('CANARY_TOKEN=[secret CANARY_TOKEN]')
    expect(streamed).toContain('same')
    const splitDeltas = envelopes
      .filter((envelope) => JSON.stringify(envelope.chunk).includes('split'))
      .map((envelope) => JSON.stringify(envelope.chunk))
      .join('')
    expect(splitDeltas).toContain('[secret CANARY_TOKEN]')
    expect(streamed).toContain('The key [secret CANARY_TOKEN] works.')
    expect(streamed).toContain('matches')
    expect(streamed).not.toContain(canary)
    expect(streamed).not.toContain(canary.slice(0, 12))
    // The history the next run sends holds the value redacted, the reasoning included.
    const stored = await chat.harness.database.db.execute(
      sql`select message from messages where conversation_id = ${conversationId}`,
    )
    expect(JSON.stringify(stored)).toContain('The key [secret CANARY_TOKEN] works.')
    expect(JSON.stringify(stored)).toContain('The key [secret CANARY_TOKEN] is accepted.')
    const requestsOfFirstRun = chat.fake.requests.length

    // The route prints it in the dev server's output; server_logs shows it redacted. The vault
    // change restarts the dev server, which may still be starting on a busy machine.
    await expect
      .poll(() => chat.harness.devboxes.devServerTarget(chat.applicationId), { timeout: 30_000 })
      .toBeDefined()
    const target = chat.harness.devboxes.devServerTarget(chat.applicationId)
    expect((await requestDevServer(target, '/api/canary')).status).toBe(200)
    expect((await requestDevServer(target, '/api/fail')).status).toBe(500)
    chat.fake.push(
      { blocks: [{ type: 'tool-call', id: 'logs', name: 'server_logs', input: { lines: 50 } }] },
      { blocks: [{ type: 'text', text: 'The log shows the route ran.' }] },
    )
    const second = await call<{ conversation_id: string }>(
      chat.actor,
      `/api/demo/applications/${chat.applicationId}/message`,
      // Typed into the chat too, the value is stored and sent redacted.
      { message: `Read the log; my key is ${canary}`, model, conversation_id: conversationId },
    )
    answers.push(JSON.stringify(second.body))
    const logs = await listenToConversation(chat, conversationId, {
      until: (envelope) => isRunEnd(envelope) && envelope.seq > (envelopes.at(-1)?.seq ?? 0),
    })
    const logsText = JSON.stringify(logs)
    expect(logsText).toContain('the token is [secret CANARY_TOKEN]')
    expect(logsText).toContain('my key is [secret CANARY_TOKEN]')
    expect(logsText).not.toContain(canary)

    // Built and deployed (open to anyone), the production server has it and prints it; nothing
    // Sprout says does.
    await chat.harness.request(`/api/applications/${chat.applicationId}`, {
      method: 'PATCH',
      user: chat.actor.user,
      headers: { 'organization-id': chat.actor.organizationId },
      body: JSON.stringify({ visibility: 'public' }),
    })
    const deploy = await chat.harness.request(`/api/applications/${chat.applicationId}/deploy`, {
      method: 'POST',
      user: chat.actor.user,
      headers: { 'organization-id': chat.actor.organizationId },
    })
    const deployText = await deploy.text()
    expect(deploy.status, deployText).toBe(200)
    answers.push(deployText)
    const appsHost = new URL((JSON.parse(deployText) as { prod_url: string }).prod_url).host
    const production = await rawRequest(chat.harness.port, appsHost, '/api/canary')
    expect(production.status).toBe(200)
    answers.push(production.body)
    const productionError = await rawRequest(chat.harness.port, appsHost, '/api/fail')
    expect(productionError.status).toBe(500)
    answers.push(productionError.body)
    // It printed the value (so it had it), which its kept output shows redacted.
    await expect
      .poll(() => chat.harness.devboxes.appServers?.logs(chat.applicationId))
      .toContain('the token is [secret CANARY_TOKEN]')
    answers.push(chat.harness.devboxes.appServers?.logs(chat.applicationId) ?? '')

    // No stored row but the ciphertext holds it, in any table.
    const tables = (await chat.harness.database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public'`,
    )) as unknown as { rows: { table_name: string }[] }
    // The audit log among them, which recorded the secret's setting by its name.
    expect(tables.rows.map((row) => row.table_name)).toContain('audit_events')
    for (const { table_name: table } of tables.rows) {
      const rows = (await chat.harness.database.db.execute(
        sql.raw(`select * from "${table}"`),
      )) as unknown as {
        rows: unknown[]
      }
      expect(JSON.stringify(rows.rows), table).not.toContain(canary)
    }
    // The model was never sent the value either, but its own words within their run.
    expect(JSON.stringify(chat.fake.requests.slice(0, requestsBeforeRepeat))).not.toContain(canary)
    expect(chat.fake.requests.length).toBeGreaterThan(requestsOfFirstRun)
    expect(JSON.stringify(chat.fake.requests.slice(requestsOfFirstRun))).not.toContain(canary)
    for (const answer of answers) expect(answer).not.toContain(canary)
    expect(logged.join('\n')).not.toContain(canary)
  })
})
