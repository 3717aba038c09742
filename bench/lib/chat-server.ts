// A Sprout server process wired to the paced fake provider, with one application whose dev box
// is ready, and raw-socket SSE listeners for the chat benchmarks.

import { mkdtemp, readFile } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { removeWithMounts } from '../../packages/devbox/src/drivers/local/sandbox/box-disk.ts'
import { type PacedAnthropic, startPacedAnthropic } from './paced-anthropic.ts'
import { residentMemoryMiB, startSproutProcess } from './server-process.ts'

export type ChatServer = {
  base: string
  pid: number
  provider: PacedAnthropic
  applicationId: string
  bearer: string
  listenToken: () => Promise<string>
  /** Sends a message; answers the conversation id. */
  send: (message: string, conversationId?: string) => Promise<string>
  listenUrl: (conversationId: string, lastEventId?: number) => Promise<string>
  lastSeq: (conversationId: string) => Promise<number>
  stop: () => Promise<void>
}

const clockTicksPerSecond = 100

/** CPU seconds (user + system) a process has used, from /proc. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond
}

export const memoryMiB = residentMemoryMiB

export function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number
}

export const milliseconds = (value: number) =>
  value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(1)} ms`

export async function startChatServer(options: {
  port: number
  databaseUrl?: string
}): Promise<ChatServer> {
  const provider = await startPacedAnthropic()
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-bench-chat-'))
  const publicUrl = `http://localhost:${options.port}`
  const server = await startSproutProcess(options.port, {
    DATA_DIR: dataDir,
    ANTHROPIC_API_KEY: 'bench',
    ANTHROPIC_BASE_URL: provider.baseUrl,
    DEVBOX_POOL_TARGET: '0',
    // The test suite's installed template, so no network is needed.
    DEVBOX_CACHE_DIR: path.join(os.tmpdir(), 'sprout-devbox-test-cache'),
    AUTH_RATE_LIMIT: '1000/60',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  })
  const base = `http://127.0.0.1:${options.port}`
  const api = async <T>(pathname: string, init: RequestInit = {}, bearer?: string): Promise<T> => {
    const response = await fetch(`${base}${pathname}`, {
      ...init,
      headers: {
        'content-type': 'application/json',
        origin: publicUrl,
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
    })
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`)
    return (await response.json()) as T
  }
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: publicUrl },
    body: JSON.stringify({
      email: 'bench@example.com',
      password: 'correct-horse-battery',
      name: 'b',
    }),
  })
  const bearer = signUp.headers.get('set-auth-token') ?? ''
  const { id: applicationId } = await api<{ id: string }>(
    '/api/applications',
    { method: 'POST', body: JSON.stringify({ initial_prompt: 'Bench app', model: 'demo' }) },
    bearer,
  )
  for (let attempt = 0; ; attempt++) {
    const ready = await api<{ ready: boolean; error?: string }>(
      `/api/applications/${applicationId}/editor-ready`,
      {},
      bearer,
    )
    if (ready.ready) break
    if (ready.error || attempt > 240) throw new Error(`dev box not ready: ${ready.error ?? ''}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  const listenToken = async () =>
    (await api<{ token: string }>('/api/auth/token', {}, bearer)).token
  return {
    base,
    pid: server.child.pid ?? 0,
    provider,
    applicationId,
    bearer,
    listenToken,
    send: async (message, conversationId) => {
      const sent = await api<{ conversation_id: string }>(
        `/api/demo/applications/${applicationId}/message`,
        {
          method: 'POST',
          body: JSON.stringify({
            message,
            model: 'claude-haiku-4-5',
            ...(conversationId ? { conversation_id: conversationId } : {}),
          }),
        },
        bearer,
      )
      return sent.conversation_id
    },
    listenUrl: async (conversationId, lastEventId) => {
      const search = new URLSearchParams({
        conversation_id: conversationId,
        token: await listenToken(),
      })
      if (lastEventId !== undefined) search.set('last_event_id', String(lastEventId))
      return `${base}/api/demo/applications/${applicationId}/listen?${search}`
    },
    lastSeq: async (conversationId) => {
      const url = `${base}/api/demo/applications/${applicationId}/listen?conversation_id=${conversationId}`
      // The compacted history ends with the last stored event: read until the data goes quiet.
      let last = 0
      const listener = await openListener(url, {
        headers: { authorization: `Bearer ${bearer}` },
        onLines: (lines) => {
          for (const match of lines.matchAll(/^id: (\d+)$/gm)) last = Number(match[1])
        },
      })
      await new Promise((resolve) => setTimeout(resolve, 300))
      listener.close()
      return last
    },
    stop: async () => {
      await server.stop()
      await provider.close()
      await removeWithMounts(dataDir)
    },
  }
}

export type Listener = { close: () => void; closed: Promise<void> }

/**
 * An SSE connection on its own socket, as lean as a browser's: complete lines are handed to
 * `onLines` with the time they arrived.
 */
export function openListener(
  url: string,
  options: {
    headers?: Record<string, string>
    onLines: (lines: string, receivedAt: number) => void
  },
): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: options.headers }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`listen answered ${response.statusCode}`))
        response.resume()
        return
      }
      response.setEncoding('utf8')
      let carry = ''
      response.on('data', (chunk: string) => {
        const receivedAt = performance.now()
        const text = carry + chunk
        const end = text.lastIndexOf('\n')
        carry = text.slice(end + 1)
        if (end >= 0) options.onLines(text.slice(0, end + 1), receivedAt)
      })
      const closed = new Promise<void>((done) => response.on('close', () => done()))
      resolve({ close: () => request.destroy(), closed })
    })
    request.on('error', (error) => reject(error))
  })
}

/** The closing data-run of a run (no other chunk has these statuses). */
export const runEndPattern = /"status": ?"(finished|failed|interrupted)"/
