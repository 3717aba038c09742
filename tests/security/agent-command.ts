import type { FakeProviderServer } from '@sprout/agent/testing/fake-provider-server.ts'
import { waitFor } from './wait-for.ts'

/** The model of an OpenAI-compatible server (a fake one here) that runs the agent's command. */
export const commandModel = 'fake-coder'

/**
 * A user signs up, creates an app, and asks a model that answers with a command: one that starts
 * a child in the background and runs on in the foreground, as a dev server or a test watcher does.
 */
export async function runAgentCommand(
  baseUrl: string,
  model: FakeProviderServer | undefined,
  command = 'sleep 600 & sleep 601; echo done',
) {
  model?.push({
    blocks: [
      {
        type: 'tool-call',
        name: 'shell_exec',
        input: { command, timeout: 300 },
      },
    ],
  })
  const call = async (pathname: string, init: { body?: unknown; token?: string } = {}) => {
    const response = await fetch(`${baseUrl}${pathname}`, {
      method: init.body === undefined ? 'GET' : 'POST',
      headers: {
        origin: baseUrl,
        'content-type': 'application/json',
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`)
    return response
  }
  const signedUp = await call('/api/auth/sign-up/email', {
    body: { email: `outlive-${Date.now()}@example.com`, password: 'correct-horse', name: 'O' },
  })
  const token = signedUp.headers.get('set-auth-token') ?? ''
  const created = await call('/api/applications', {
    token,
    body: { initial_prompt: 'An app', model: commandModel },
  })
  const { id } = (await created.json()) as { id: string }
  await waitFor(
    () => 'the editor to be ready',
    60_000,
    async () => {
      const ready = await call(`/api/applications/${id}/editor-ready`, { token })
      const body = (await ready.json()) as { ready: boolean; error?: string }
      if (body.error) throw new Error(body.error)
      return body.ready ? true : undefined
    },
  )
  await call(`/api/demo/applications/${id}/message`, {
    token,
    body: { message: 'Run the watcher', model: commandModel },
  })
}
