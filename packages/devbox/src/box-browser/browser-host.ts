import { randomBytes } from 'node:crypto'
import { BOX_CHROMIUM_ARGS, BOX_CHROMIUM_PATH } from '../box-chromium.ts'
import type { Devbox, ExecResult } from '../devbox-driver.ts'
import {
  BROWSER_CALL_SCRIPT,
  BROWSER_HOST_SCRIPT,
  BROWSER_READY_MARKER,
} from './browser-host-script.ts'
import { BrowserError, type BrowserRequest, browserLimits } from './browser-types.ts'

// The box's browser host (browser-host-script.ts) seen from the server: started by one long box
// command, called by a short one per call that posts to it on the box's loopback.

export type Host = { port: number; token: string; stop: AbortController; exited: boolean }
export type BrowserBox = Pick<Devbox, 'exec' | 'devServer'>

/** Idle this long, the box's browser exits and gives its memory back. */
const HOST_IDLE_MS = 3 * 60 * 1000
/** Seconds the host may live at most, as any box command (it exits sooner when idle). */
const HOST_LIFETIME_SECONDS = 60 * 60
/** What a call keeps of the page's own texts. */
const LIST_LIMIT = 20
const TEXT_LIMIT = 500

/** Starts the box's browser host and waits for its port (a fresh Chromium: 1–3 s). */
export async function startBrowserHost(box: BrowserBox, deadline: number): Promise<Host> {
  const stop = new AbortController()
  const token = randomBytes(16).toString('hex')
  let output = ''
  let announced: ((text: string) => void) | undefined
  const ready = new Promise<string>((resolve) => {
    announced = resolve
  })
  const running: Promise<ExecResult | undefined> = box
    .exec(`node --input-type=module -e ${shellQuote(BROWSER_HOST_SCRIPT)}`, {
      timeoutSeconds: HOST_LIFETIME_SECONDS,
      signal: stop.signal,
      env: {
        SPROUT_BROWSER_HOST: JSON.stringify({
          executablePath: BOX_CHROMIUM_PATH,
          args: BOX_CHROMIUM_ARGS,
          width: browserLimits.width,
          height: browserLimits.height,
          idleMs: HOST_IDLE_MS,
          token,
        }),
      },
      onOutput: (chunk) => {
        if (output.length < 20_000) output += chunk
        const line = output.split('\n').find((each) => each.startsWith(BROWSER_READY_MARKER))
        if (line) announced?.(line.slice(BROWSER_READY_MARKER.length))
      },
    })
    .catch(() => undefined)
  const entry: Host = { port: 0, token, stop, exited: false }
  void running.then(() => {
    entry.exited = true
  })
  const first = await Promise.race([
    ready,
    running.then((result) => `exit:${result?.output ?? ''}`),
    sleep(Math.max(0, deadline - Date.now())).then(() => 'late'),
  ])
  if (first === 'late') {
    stop.abort()
    throw new BrowserError('timeout', 'Chromium did not start in the app’s box within 30 s.')
  }
  if (first.startsWith('exit:')) {
    throw new BrowserError(
      'failed',
      `Chromium did not start in the app’s box (Debian’s chromium at ${BOX_CHROMIUM_PATH}): ${lastLines(first.slice(5))}`,
    )
  }
  const announcement = JSON.parse(first) as { kind: string; port?: number }
  if (announcement.kind === 'no-playwright') {
    stop.abort()
    throw new BrowserError(
      'no-playwright',
      'The app has no playwright-core in node_modules: add it with `npm install -D @playwright/test@1` (the browser uses the system Chromium, nothing is downloaded), then call browser again.',
    )
  }
  entry.port = announcement.port ?? 0
  return entry
}

export type HostAnswer = { kind: string; [key: string]: unknown }

/** Posts one call to the host; `timeout` when the call ran out of time. */
export async function callHost(
  box: BrowserBox,
  host: Host,
  input: {
    origin: string
    path: string
    actions: BrowserRequest['actions']
    deadline: number
    signal?: AbortSignal
  },
): Promise<HostAnswer> {
  const left = input.deadline - Date.now()
  const body = {
    origin: input.origin,
    path: input.path,
    actions: input.actions,
    // A second for the call's own process, on top of what the page may take.
    budgetMs: Math.max(1000, left - 1500),
    actionTimeoutMs: 5000,
    findTimeoutMs: 2000,
    quietMs: 100,
    settleMs: 3000,
    maxScreenshotBytes: browserLimits.screenshotBytes,
    listLimit: LIST_LIMIT,
    textLimit: TEXT_LIMIT,
  }
  const result = await box.exec(BROWSER_CALL_SCRIPT, {
    timeoutSeconds: Math.max(1, Math.ceil(left / 1000)),
    env: {
      SPROUT_BROWSER_PORT: String(host.port),
      SPROUT_BROWSER_TOKEN: host.token,
      SPROUT_BROWSER_BODY: JSON.stringify(body),
    },
    outputLimitBytes: 4 * 1024 * 1024,
    ...(input.signal ? { signal: input.signal } : {}),
  })
  if (result.timedOut) return { kind: 'timeout' }
  if (result.aborted) throw new BrowserError('aborted', 'The browser call was stopped.')
  return hostAnswerOf(result)
}

/** The host's HTTP answer as the call printed it; `gone` when nothing listens any more. */
function hostAnswerOf(result: ExecResult): HostAnswer {
  const start = result.output.indexOf('HTTP/1.1 ')
  if (start < 0) {
    const refused = result.exitCode === 3 || result.output.includes('Connection refused')
    return refused ? { kind: 'gone' } : failed(result)
  }
  const status = Number(result.output.slice(start + 9, start + 12))
  if (status === 409) return { kind: 'busy' }
  const bodyStart = result.output.indexOf('\r\n\r\n', start)
  if (status !== 200 || bodyStart < 0 || result.truncated) return failed(result)
  return JSON.parse(result.output.slice(bodyStart + 4)) as HostAnswer
}

function failed(result: ExecResult): HostAnswer {
  return { kind: 'failed', message: lastLines(result.output) }
}

export function lastLines(output: string): string {
  const lines = output.trim().split('\n').filter(Boolean)
  return lines.slice(-5).join('\n').slice(-1000) || '(no output)'
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref())

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`
