import {
  type BrowserBox,
  callHost,
  type Host,
  type HostAnswer,
  sleep,
  startBrowserHost,
} from './browser-host.ts'
import {
  BrowserError,
  type BrowserPage,
  type BrowserRequest,
  browserLimits,
} from './browser-types.ts'

export type BoxBrowser = {
  /** Opens `path` of the app's dev server, acts, and reads the page; one call at a time. */
  open: (request: BrowserRequest) => Promise<BrowserPage>
  /** Stops the box's browser (it also stops by itself when idle). */
  close: () => void
}

const boxBrowsers = new WeakMap<BrowserBox, BoxBrowser>()

/**
 * The app's browser (docs/product/tool-calls.md "browser"): Chromium inside the app's box, kept
 * between calls by a host program so a call costs a page load, not a browser start (decision 044).
 * One per box: a second call waits for the first.
 */
export function boxBrowser(box: BrowserBox): BoxBrowser {
  let browser = boxBrowsers.get(box)
  if (!browser) {
    browser = createBoxBrowser(box)
    boxBrowsers.set(box, browser)
  }
  return browser
}

/** A browser of its own for `box`; `callSeconds` shorter than the tool's 30 s in tests. */
export function createBoxBrowser(
  box: BrowserBox,
  limits: { callSeconds: number } = browserLimits,
): BoxBrowser {
  let host: Promise<Host> | undefined
  let queue: Promise<unknown> = Promise.resolve()

  const call = async (request: BrowserRequest, deadline: number): Promise<BrowserPage> => {
    const origin = await devServerOrigin(box)
    const target = new URL(request.path, origin)
    if (target.origin !== new URL(origin).origin) {
      throw new BrowserError('refused', 'The browser opens only paths of the app’s own dev server.')
    }
    for (let attempt = 0; ; attempt++) {
      if (!host) host = startBrowserHost(box, deadline)
      let current: Host
      try {
        current = await host
      } catch (error) {
        host = undefined
        throw error
      }
      if (current.exited) {
        host = undefined
        continue
      }
      const started = Date.now()
      const answer = await callHost(box, current, {
        origin,
        path: target.pathname + target.search + target.hash,
        actions: request.actions,
        deadline,
        ...(request.signal ? { signal: request.signal } : {}),
      })
      if (answer.kind === 'gone' && attempt === 0 && Date.now() < deadline - 3000) {
        current.stop.abort()
        host = undefined
        continue
      }
      if (answer.kind === 'timeout') {
        // A page that hangs the host is not reused: the next call starts a fresh browser.
        current.stop.abort()
        host = undefined
      }
      return pageOf(answer, Date.now() - started, limits.callSeconds)
    }
  }

  return {
    open: (request) => {
      const deadline = Date.now() + limits.callSeconds * 1000
      const previous = queue
      const mine = (async () => {
        const waited = await Promise.race([
          previous.then(() => 'free'),
          sleep(Math.max(0, deadline - Date.now() - 2000)).then(() => 'busy'),
        ])
        if (waited === 'busy') {
          throw new BrowserError(
            'busy',
            `The app’s browser stayed busy with another call for ${limits.callSeconds} s (one page per app at a time); try again.`,
          )
        }
        return call(request, deadline)
      })()
      queue = mine.catch(() => undefined)
      return mine
    },
    close: () => {
      void host?.then((current) => current.stop.abort()).catch(() => undefined)
      host = undefined
    },
  }
}

async function devServerOrigin(box: BrowserBox): Promise<string> {
  let origin = box.devServer.urlInside?.()
  if (!origin && box.devServer.status() !== 'crashed') {
    await box.devServer.start()
    origin = box.devServer.urlInside?.()
  }
  if (!origin) {
    throw new BrowserError(
      'no-dev-server',
      `The app’s dev server is not running (${box.devServer.status()}): read server_logs to see why.`,
    )
  }
  return origin
}

function pageOf(answer: HostAnswer, durationMs: number, callSeconds: number): BrowserPage {
  switch (answer.kind) {
    case 'page':
      break
    case 'timeout':
      throw new BrowserError(
        'timeout',
        `The browser call took longer than ${callSeconds} s and was stopped; open the page with fewer actions, or look for what keeps it loading.`,
      )
    case 'busy':
      throw new BrowserError('busy', 'The app’s browser is busy with another call; try again.')
    case 'gone':
      throw new BrowserError('failed', 'The app’s browser stopped during the call; try again.')
    default:
      throw new BrowserError('failed', `The browser failed: ${String(answer.message ?? '')}`)
  }
  const page = answer as unknown as Omit<BrowserPage, 'screenshot' | 'durationMs'> & {
    screenshot?: { mediaType: 'image/png' | 'image/jpeg'; base64: string }
  }
  const { screenshot, ...rest } = page
  return {
    ...rest,
    ...(screenshot
      ? {
          screenshot: {
            mediaType: screenshot.mediaType,
            bytes: Buffer.from(screenshot.base64, 'base64'),
          },
        }
      : {}),
    durationMs,
  }
}
