// The owner of a box killed with SIGKILL while a run waits on a long command in the box (issue 30,
// docs/decisions/033-box-leases-and-relay.md): the run ends with the retryable restart error, the
// preview comes back through another instance, and the stream read through it loses no event.
import { startFakeOpenAIChat } from '@sprout/agent/testing/fake-openai-chat.ts'
import type { FakeProviderServer } from '@sprout/agent/testing/fake-provider-server.ts'
import { afterAll, describe, expect, it } from 'vitest'
import { parseConfig } from '../config/config.ts'
import { RESTART_ERROR_MESSAGE } from '../runs/close-run.ts'
import { startServer } from '../start-server.ts'
import { isRunEnd, readStream } from '../testing/chat-client.ts'
import {
  clusterEnvironments,
  previewCookieThrough,
  until,
} from '../testing/cluster-environments.ts'
import { testDatabaseKind } from '../testing/database.ts'
import {
  descendantCommands,
  type InstanceProcess,
  startInstanceProcess,
} from '../testing/instance-process.ts'
import { rawRequest } from '../testing/raw-request.ts'
import { readResumableStream, seqsComplete } from '../testing/resumable-stream.ts'
import { requestServer, signUpOverHttp } from '../testing/server-process.ts'

const cleanups: (() => Promise<void>)[] = []
// An OpenAI-compatible model (a fake one in this process) that answers with a long command: the
// Demo model runs none.
const commandModel = 'fake-coder'

describe.skipIf(testDatabaseKind !== 'postgres')('the owner of a box killed mid-run', () => {
  let a: InstanceProcess | undefined
  let model: FakeProviderServer | undefined
  afterAll(async () => {
    a?.kill()
    await model?.close()
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it('ends the run with the retryable error, loses no event, and B serves the preview', {
    timeout: 480_000,
  }, async () => {
    model = await startFakeOpenAIChat([])
    const {
      environments: [environmentA = {}, environmentB = {}],
    } = await clusterEnvironments(cleanups, {
      name: 'midrun',
      publicPort: 29510,
      instances: 2,
      shared: {
        OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        OPENAI_COMPATIBLE_API_KEY: 'test-key',
        OPENAI_COMPATIBLE_MODELS: commandModel,
      },
    })
    a = await startInstanceProcess(environmentA)
    const b = await startServer(parseConfig(environmentB), { serveWeb: false })
    cleanups.push(b.stop)
    const baseA = 'http://127.0.0.1:29511'
    const baseB = `http://127.0.0.1:${b.port}`
    const token = await signUpOverHttp(baseA, { email: 'midrun@example.com', name: 'm' })
    const auth = { authorization: `Bearer ${token}` }
    const created = await requestServer(baseA, '/api/applications', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ initial_prompt: 'a box on A', model: 'demo' }),
    })
    const { id } = (await created.json()) as { id: string }
    await until(
      async () => {
        const ready = await requestServer(baseB, `/api/applications/${id}/editor-ready`, {
          headers: auth,
        })
        return ((await ready.json()) as { ready: boolean }).ready
      },
      180_000,
      'the box, asked through B',
    )
    expect(b.devboxes.isOpen(id)).toBe(false)
    const { host, cookie } = await previewCookieThrough(baseB, b.port, id, auth)
    const preview = () => rawRequest(b.port, host, '/', { cookie, accept: 'text/html' })
    expect((await preview()).status).toBe(200)

    // The command keeps its shell (`; echo`), so `sleep 600` is a process of its own to look for.
    model.push({
      blocks: [
        {
          type: 'tool-call',
          name: 'shell_exec',
          input: { command: 'sleep 600; echo done', timeout: 300 },
        },
      ],
    })
    const sent = await requestServer(baseB, `/api/demo/applications/${id}/message`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ message: 'Run the long command', model: commandModel }),
    })
    expect(sent.status).toBe(200)
    const { conversation_id: conversationId } = (await sent.json()) as { conversation_id: string }
    const listenUrl = `${baseB}/api/demo/applications/${id}/listen?conversation_id=${conversationId}`
    const stream = readResumableStream(listenUrl, {
      headers: auth,
      until: isRunEnd,
      timeoutMs: 240_000,
    })
    const pid = a.child.pid ?? 0
    await until(
      async () => descendantCommands(pid).includes('sleep 600'),
      60_000,
      "the run's command on A",
    )
    const seenBeforeKill = stream.envelopes.length
    const killedAt = performance.now()
    a.kill()

    // The preview through B: a page that reloads itself while A's lease lasts, then the box.
    await until(
      async () => {
        const page = await preview()
        return page.status === 200 && page.body.includes('<div id="root">')
      },
      // About 35 s on an idle machine (the lease, then B opens the box), 61 s at a load of 24 on
      // 2 cores: generous.
      120_000,
      "the preview through B after A's death",
    )
    console.info(
      `[midrun] preview back through B ${Math.round(performance.now() - killedAt)} ms after the kill`,
    )
    expect(b.devboxes.isOpen(id)).toBe(true)

    // The leader (B now) closes the run once its heartbeat is 30 s old.
    await stream.done
    stream.close()
    expect(stream.envelopes.length).toBeGreaterThan(seenBeforeKill)
    expect(stream.reconnects).toBeGreaterThan(0)
    expect(seqsComplete(stream.envelopes)).toBe(true)
    const errors = stream.envelopes.filter((envelope) => envelope.chunk.type === 'data-error')
    expect(JSON.stringify(errors)).toContain(RESTART_ERROR_MESSAGE)
    const end = stream.envelopes.at(-1)?.chunk as { data: { status: string } }
    expect(end.data.status).toBe('failed')
    // What B reads from the start is what the reconnecting reader got, event for event.
    const whole = await readStream(`${listenUrl}&last_event_id=0`, {
      until: isRunEnd,
      init: { headers: auth },
      timeoutMs: 30_000,
    })
    expect(whole.envelopes).toEqual(stream.envelopes)
  })
})
