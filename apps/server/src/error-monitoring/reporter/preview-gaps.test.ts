import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { type Browser, chromium, type Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handOffPath } from '../../testing/app-harness.ts'
import { useOrganizationHarness } from '../../testing/organization-harness.ts'

/** Buttons that load a module script (one that exists, one that does not) and one that throws. */
const appSource = `export function App() {
  const load = (file: string) => {
    const script = document.createElement('script')
    script.type = 'module'
    script.src = \`/src/\${file}?at=\${Date.now()}\`
    document.head.append(script)
  }
  return (
    <main>
      <button type="button" onClick={() => load('more.ts')}>Load more</button>
      <button type="button" onClick={() => load('missing.ts')}>Load missing</button>
      <button type="button" onClick={() => { throw new Error('Exploded after the gap') }}>
        Explode
      </button>
    </main>
  )
}
`

type Group = { representative_message: string }

/**
 * docs/product/error-monitoring.md "Reporters" (Sprout's own gaps): a preview page that Sprout's own failure
 * broke (its dev server not running, the preview host answering 503 for it) reports nothing as
 * the app's; pages served after it report as usual.
 */
describe("Sprout's own gaps in the preview are not the app's errors", { timeout: 400_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Gaps', listen: true })
  let applicationId: string
  let previewUrl: string
  let browser: Browser
  const box = () => {
    const found = setup.harness.devboxes.box(applicationId)
    if (!found) throw new Error('no box')
    return found
  }
  const messages = async () => {
    const response = await setup.request(`/api/applications/${applicationId}/error-groups?limit=50`)
    const { groups } = (await response.json()) as { groups: Group[] }
    return groups.map((group) => group.representative_message)
  }
  const openPreview = async (): Promise<Page> => {
    const answer = await setup.request('/api/org/devbox-token', {
      method: 'POST',
      body: JSON.stringify({ devbox_url: previewUrl }),
    })
    const { token } = (await answer.json()) as { token: string }
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${previewUrl}${handOffPath(token)}`)
    await expect.poll(() => page.getByRole('button', { name: 'Explode' }).count()).toBe(1)
    return page
  }
  /** The answer to the envelope that reports `text` (the SDK sends sessions there too). */
  const envelopeAnswered = (page: Page, text: string) =>
    page.waitForResponse(
      (response) =>
        response.url().includes('/__sprout/envelope') &&
        (response.request().postData() ?? '').includes(text),
    )

  beforeAll(async () => {
    const created = await setup.createPreviewedApplication('A page that loads more')
    applicationId = created.id
    previewUrl = created.previewUrl
    await box().files.write('src/more.ts', 'export const more = 1\n')
    await box().files.write('src/App.tsx', appSource)
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    })
  })
  afterAll(() => browser?.close())

  it('drops what a page reports while its dev server is down, and hears pages served after', async () => {
    const before = await openPreview()
    // The dev server dies and cannot start for a while: the preview host answers 503 itself.
    const packageFile = path.join(box().workspacePath, 'package.json')
    const packageJson = await readFile(packageFile, 'utf8')
    await box().files.write(
      'package.json',
      packageJson.replace(/"dev": "[^"]*"/, '"dev": "exit 1"'),
    )
    const groupId = (
      box().devServer as { processGroupId?: () => number | undefined }
    ).processGroupId?.()
    expect(groupId).toBeDefined()
    process.kill(-(groupId ?? 0), 'SIGKILL')
    await expect.poll(() => box().devServer.status(), { timeout: 30_000 }).not.toBe('running')
    const dropped = envelopeAnswered(before, 'more.ts')
    await before.getByRole('button', { name: 'Load more' }).click()
    expect((await dropped).status()).toBe(200)
    // Answered only once stored (docs/product/error-monitoring.md "Ingest"): nothing was.
    expect((await messages()).join('\n')).not.toContain('more.ts')

    await box().files.write('package.json', packageJson)
    await expect.poll(() => box().devServer.status(), { timeout: 90_000 }).toBe('running')
    const after = await openPreview()
    await after.getByRole('button', { name: 'Load missing' }).click()
    await after.getByRole('button', { name: 'Explode' }).click()
    await expect
      .poll(async () => (await messages()).join('\n'), { timeout: 30_000, interval: 250 })
      .toContain('Exploded after the gap')
    // The dev server's own 404 is the app's: a module it names that does not exist. (Both load
    // failures are one group, their URLs normalised: it is named by the first one stored.)
    await expect
      .poll(async () => (await messages()).join('\n'), { timeout: 30_000, interval: 250 })
      .toContain('missing.ts')
    expect((await messages()).join('\n')).not.toContain('more.ts')
  })
})
