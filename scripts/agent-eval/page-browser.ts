import { type Browser, chromium } from 'playwright-core'
import { chromiumArgs } from '../chromium-args.ts'
import type { PreviewAccess } from './preview-access.ts'

/** The machine's Chromium, as the browser tests launch it (playwright.config.ts); never downloaded. */
const launchOptions = {
  // Ctrl-C is the evaluation's to handle: it stops the server and writes the table first.
  handleSIGINT: false,
  handleSIGTERM: false,
  handleSIGHUP: false,
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: chromiumArgs,
}

/** A dev server's first page load compiles the app; an idle one starts again first. */
const pageTextTimeoutMs = 60_000

export type PageBrowser = {
  /** Opens `page` of the preview and waits for `text` to be visible; answers why not, or undefined. */
  findText: (preview: PreviewAccess, page: string, text: string) => Promise<string | undefined>
  close: () => Promise<void>
}

/** One Chromium for the evaluation, started on the first page check. */
export function pageBrowser(): PageBrowser {
  let launched: Promise<Browser> | undefined
  return {
    findText: async (preview, pagePath, text) => {
      launched ??= chromium.launch(launchOptions)
      const browser = await launched
      const context = await browser.newContext()
      try {
        await context.addCookies([
          { ...preview.cookie, url: preview.origin, httpOnly: true, sameSite: 'Lax' },
        ])
        const page = await context.newPage()
        // What went wrong in the page, said with a failure: a blank page alone tells nothing.
        const problems: string[] = []
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console: ${message.text()}`)
        })
        page.on('requestfailed', (request) =>
          problems.push(
            `failed: ${request.url()} (${request.failure()?.errorText ?? 'no reason'})`,
          ),
        )
        page.on('response', (response) => {
          if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`)
        })
        await page.goto(new URL(pagePath, preview.origin).toString())
        try {
          await page
            .getByText(text)
            .first()
            .waitFor({ state: 'visible', timeout: pageTextTimeoutMs })
          return undefined
        } catch {
          const shown = (
            await page
              .locator('body')
              .innerText()
              .catch(() => '')
          ).trim()
          const said = problems.length > 0 ? `; ${problems.slice(0, 5).join('; ')}` : ''
          return `"${text}" not shown in ${pageTextTimeoutMs / 1000} s; the page shows: ${shown.slice(0, 200) || '(nothing)'}${said}`
        }
      } finally {
        await context.close()
      }
    },
    close: async () => {
      if (launched) await (await launched).close()
    },
  }
}
