/**
 * The program that keeps an app's browser inside its box (docs/product/tool-calls.md "browser"):
 * `node --input-type=module -e`, in the workspace, so `playwright-core` is the app's own. It
 * launches the box's Chromium with one page, prints READY_MARKER then its loopback port, and opens
 * what each call asks (POST /, the token in a header), one call at a time; it exits when idle.
 * Plain JavaScript: it runs on the box's Node, never through the server's build.
 */
export const BROWSER_READY_MARKER = '@@sprout-browser-ready@@'

export const BROWSER_HOST_SCRIPT = `
import { createServer } from 'node:http'
const host = JSON.parse(process.env.SPROUT_BROWSER_HOST)
const say = (marker, value) => process.stdout.write('\\n' + marker + JSON.stringify(value) + '\\n')

let chromium
try {
  ;({ chromium } = await import('playwright-core'))
} catch {
  say('${BROWSER_READY_MARKER}', { kind: 'no-playwright' })
  process.exit(0)
}
const browser = await chromium.launch({ executablePath: host.executablePath, args: host.args, headless: true })
browser.on('disconnected', () => process.exit(0))
// One context kept between calls: its HTTP cache makes the next visit of the app fast.
const context = await browser.newContext({
  viewport: { width: host.width, height: host.height },
  serviceWorkers: 'block',
  acceptDownloads: false,
})
let origin = 'http://127.0.0.1'
let call
// Only the app's own dev server: every other request is aborted before it leaves, and said.
await context.route(
  (url) => url.origin !== origin,
  (route) => {
    call?.push(call.blocked, route.request().url())
    return route.abort('blockedbyclient')
  },
)
await context.routeWebSocket(
  (url) => url.host !== new URL(origin).host,
  (socket) => { call?.push(call.blocked, socket.url()); return socket.close({ code: 1008, reason: 'blocked' }) },
)
const page = await context.newPage()
page.on('console', (message) => {
  if (!call || message.type() !== 'error') return
  const where = message.location()
  const place = where && where.url ? ' (' + where.url.replace(origin, '') + ':' + where.lineNumber + ')' : ''
  call.push(call.consoleErrors, call.cut(message.text()) + place)
})
page.on('pageerror', (error) => call?.push(call.consoleErrors, call.cut('Uncaught ' + (error.stack || error.message))))
page.on('request', () => { if (call) { call.inFlight++; call.lastActivity = Date.now() } })
const settled = () => { if (call) { call.inFlight = Math.max(0, call.inFlight - 1); call.lastActivity = Date.now() } }
page.on('requestfinished', settled)
page.on('requestfailed', (request) => {
  settled()
  const reason = request.failure()?.errorText ?? 'failed'
  if (!call || reason.includes('ERR_BLOCKED_BY_CLIENT') || reason.includes('ERR_ABORTED')) return
  call.push(call.failedRequests, request.method() + ' ' + request.url().replace(origin, '') + ': ' + reason)
})
page.on('response', (response) => {
  if (!call || response.status() < 400) return
  const request = response.request()
  call.push(call.failedRequests, request.method() + ' ' + response.url().replace(origin, '') + ': ' + response.status() + ' ' + response.statusText())
})

let idleTimer
let busy = false
const idle = () => {
  clearTimeout(idleTimer)
  idleTimer = setTimeout(() => browser.close().finally(() => process.exit(0)), host.idleMs)
}
const server = createServer((request, response) => {
  if (request.method !== 'POST' || request.headers['x-sprout-browser'] !== host.token) {
    response.writeHead(403).end()
    return
  }
  if (busy) {
    response.writeHead(409).end()
    return
  }
  busy = true
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', async () => {
    clearTimeout(idleTimer)
    let result
    try {
      result = await open(JSON.parse(Buffer.concat(chunks).toString('utf8')))
    } catch (error) {
      result = { kind: 'failed', message: String(error && error.message ? error.message : error) }
    } finally {
      call = undefined
      busy = false
      idle()
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result))
  })
})
server.listen(0, '127.0.0.1', () => {
  say('${BROWSER_READY_MARKER}', { kind: 'ready', port: server.address().port })
  idle()
})

async function open(input) {
  const deadline = Date.now() + input.budgetMs
  const left = () => Math.max(1, deadline - Date.now())
  origin = new URL(input.origin).origin
  const startedAt = Date.now()
  const timings = {}
  const mark = (name) => { timings[name] = Date.now() - startedAt }
  call = {
    consoleErrors: [],
    failedRequests: [],
    blocked: [],
    inFlight: 0,
    lastActivity: Date.now(),
    cut: (text) => (text.length > input.textLimit ? text.slice(0, input.textLimit) + '…' : text),
    push: (list, entry) => { if (list.length < input.listLimit) list.push(entry); else list.dropped = (list.dropped ?? 0) + 1 },
  }
  page.setDefaultTimeout(Math.min(input.actionTimeoutMs, left()))
  // Quiet: no request in flight for a moment (the app's fetches answered), bounded.
  const quiet = async (maxMs) => {
    const until = Date.now() + Math.min(maxMs, left())
    while (Date.now() < until) {
      if (call.inFlight === 0 && Date.now() - call.lastActivity >= input.quietMs) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  let actionError
  let done = 0
  let status
  try {
    const response = await page.goto(origin + input.path, { waitUntil: 'load', timeout: left() })
    status = response?.status()
    mark('loaded')
    await quiet(input.settleMs)
  } catch (error) {
    actionError = 'Opening ' + input.path + ' failed: ' + error.message.split('\\n')[0]
  }
  for (const action of actionError ? [] : input.actions) {
    try {
      await act(page, action, input, left)
      done++
      await quiet(input.settleMs)
    } catch (error) {
      actionError = describeActionError(action, error, call.cut)
      break
    }
  }
  mark('acted')
  let snapshot = ''
  try {
    snapshot = await page.ariaSnapshot({ timeout: Math.min(5000, left()) })
  } catch (error) {
    snapshot = '(no snapshot: ' + error.message.split('\\n')[0] + ')'
  }
  mark('snapshot')
  let screenshot = await page.screenshot({ type: 'png', timeout: left() }).catch(() => undefined)
  let mediaType = 'image/png'
  if (screenshot && screenshot.length > input.maxScreenshotBytes) {
    screenshot = await page.screenshot({ type: 'jpeg', quality: 70, timeout: left() }).catch(() => undefined)
    mediaType = 'image/jpeg'
  }
  mark('screenshot')
  const url = page.url()
  const title = await page.title().catch(() => '')
  const result = {
    kind: 'page',
    url: url.startsWith(origin) ? url.slice(origin.length) || '/' : url,
    title,
    status,
    actionsDone: done,
    actionError,
    snapshot,
    consoleErrors: call.consoleErrors,
    consoleErrorsDropped: call.consoleErrors.dropped ?? 0,
    failedRequests: call.failedRequests,
    failedRequestsDropped: call.failedRequests.dropped ?? 0,
    blocked: call.blocked,
    screenshot: screenshot && screenshot.length <= input.maxScreenshotBytes ? { mediaType, base64: screenshot.toString('base64') } : undefined,
    timings,
  }
  // The page rests between calls: no HMR reloads or timers spending the box's CPU meanwhile.
  call = undefined
  await page.goto('about:blank').catch(() => {})
  return result
}

async function act(page, action, input, left) {
  if (action.action === 'press' && !action.role) return page.keyboard.press(action.key)
  const locator = page.getByRole(action.role, action.name === undefined ? {} : { name: action.name, exact: action.exact ?? false })
  try {
    await locator.first().waitFor({ state: 'attached', timeout: Math.min(input.findTimeoutMs, left()) })
  } catch {
    throw new Error('none')
  }
  const count = await locator.count()
  if (count > 1) throw new Error('many:' + count)
  if (action.action === 'click') return locator.click()
  if (action.action === 'fill') return locator.fill(action.value)
  return locator.press(action.key)
}

function describeActionError(action, error, cut) {
  const what = action.role ? action.role + (action.name !== undefined ? ' "' + action.name + '"' : '') : 'the page'
  const verb = action.action === 'fill' ? 'fill' : action.action === 'press' ? 'press ' + action.key + ' on' : 'click'
  const message = error.message.split('\\n')[0]
  if (message === 'none') return 'Could not ' + verb + ' ' + what + ': no element with that role and name on the page (the snapshot shows what there is).'
  if (message.startsWith('many:')) return 'Could not ' + verb + ' ' + what + ': ' + message.slice(5) + ' elements match; give the whole name with exact: true.'
  return 'Could not ' + verb + ' ' + what + ': ' + cut(message)
}
`

/**
 * One call's client: bash alone (no Node to start), posting the call to the host on the box's
 * loopback over /dev/tcp and printing the HTTP answer. The length is in bytes (LC_ALL=C).
 */
export const BROWSER_CALL_SCRIPT = `LC_ALL=C
body=$SPROUT_BROWSER_BODY
exec 3<>"/dev/tcp/127.0.0.1/$SPROUT_BROWSER_PORT" || exit 3
printf 'POST / HTTP/1.0\\r\\nx-sprout-browser: %s\\r\\ncontent-type: application/json\\r\\ncontent-length: %d\\r\\n\\r\\n%s' "$SPROUT_BROWSER_TOKEN" "\${#body}" "$body" >&3
cat <&3`
