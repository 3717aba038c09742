import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boxChromiumInstalled } from '../box-chromium.ts'
import type { LocalDevbox, LocalDriver } from '../drivers/local/local-driver.ts'
import { createTestDriver } from '../testing/devbox-support.ts'
import { type BoxBrowser, boxBrowser } from './box-browser.ts'
import { BrowserError, browserLimits } from './browser-types.ts'

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({
  width: bytes.readUInt32BE(16),
  height: bytes.readUInt32BE(20),
})

// A page of problems, served by the starter's Vite from public/.
const brokenPage = `<!doctype html><title>Broken</title><h1>Broken page</h1>
<script>console.error('boom from the page'); fetch('/api/nothing-here')
fetch('http://example.com/track').catch(() => {})</script>`

describe.skipIf(!boxChromiumInstalled())('the browser of an app’s box', () => {
  let rootDir: string
  let driver: LocalDriver
  let box: LocalDevbox
  let browser: BoxBrowser

  beforeAll(async () => {
    rootDir = await mkdtemp(path.join(os.tmpdir(), 'sprout-browser-'))
    driver = createTestDriver({ rootDir })
    box = await driver.provision('fullstack')
    await box.files.write('public/broken.html', brokenPage)
    await box.files.write('public/hang.html', '<title>Hang</title><script>for (;;) {}</script>')
    browser = boxBrowser(box)
  }, 120_000)

  afterAll(async () => {
    browser?.close()
    await driver.shutdown()
    await rm(rootDir, { recursive: true, force: true })
  })

  it('opens the starter and answers its snapshot and a 1280×800 PNG of at most 1 MB', async () => {
    const page = await browser.open({ path: '/', actions: [] })
    expect(page).toMatchObject({ url: '/', title: 'My Sprout App', status: 200 })
    expect(page.snapshot).toContain('heading "Your app starts here." [level=1]')
    expect(page.consoleErrors).toEqual([])
    expect(page.failedRequests).toEqual([])
    const shot = page.screenshot
    expect(shot?.mediaType).toBe('image/png')
    expect(shot?.bytes.length).toBeLessThanOrEqual(browserLimits.screenshotBytes)
    expect(shot && pngSize(shot.bytes)).toEqual({ width: 1280, height: 800 })
  }, 60_000)

  it('fills and clicks by role and name, and the page shows the change', async () => {
    const page = await browser.open({
      path: '/',
      actions: [
        { action: 'fill', role: 'textbox', name: 'Note', value: 'planted by the browser' },
        { action: 'click', role: 'button', name: 'Plant it' },
      ],
    })
    expect(page.actionError).toBeUndefined()
    expect(page.actionsDone).toBe(2)
    expect(page.snapshot).toContain('planted by the browser')
  }, 60_000)

  it('says which element it could not find, and still shows the page', async () => {
    const page = await browser.open({
      path: '/',
      actions: [{ action: 'click', role: 'button', name: 'No such button' }],
    })
    expect(page.actionsDone).toBe(0)
    expect(page.actionError).toBe(
      'Could not click button "No such button": no element with that role and name on the page (the snapshot shows what there is).',
    )
    expect(page.snapshot).toContain('Your app starts here.')
  }, 60_000)

  it('reports console errors and failed requests, and blocks every other origin', async () => {
    const page = await browser.open({ path: '/broken.html', actions: [] })
    expect(page.title).toBe('Broken')
    expect(page.consoleErrors.some((each) => each.includes('boom from the page'))).toBe(true)
    expect(page.failedRequests).toContain('GET /api/nothing-here: 404 Not Found')
    expect(page.blocked).toContain('http://example.com/track')
  }, 60_000)

  it('refuses a path that resolves to another host', async () => {
    const opening = browser.open({ path: '//example.com/', actions: [] })
    await expect(opening).rejects.toThrow(BrowserError)
    await expect(opening).rejects.toThrow('only paths of the app’s own dev server')
  })

  it('opens one page at a time: a second call waits for the first', async () => {
    const [first, second] = await Promise.all([
      browser.open({ path: '/', actions: [] }),
      browser.open({ path: '/broken.html', actions: [] }),
    ])
    expect(first.title).toBe('My Sprout App')
    expect(second.title).toBe('Broken')
    expect(second.consoleErrors.some((each) => each.includes('boom'))).toBe(true)
    expect(first.consoleErrors).toEqual([])
  }, 60_000)

  it('stops a call at 30 s, and the next call has a fresh browser', async () => {
    const started = Date.now()
    await expect(browser.open({ path: '/hang.html', actions: [] })).rejects.toThrow(
      'took longer than 30 s',
    )
    expect(Date.now() - started).toBeLessThan(33_000)
    const page = await browser.open({ path: '/', actions: [] })
    expect(page.snapshot).toContain('Your app starts here.')
  }, 90_000)
})
