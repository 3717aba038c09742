import { type Browser, chromium, type Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handOffPath } from '../../testing/app-harness.ts'
import { useOrganizationHarness } from '../../testing/organization-harness.ts'
import { rawRequest } from '../../testing/raw-request.ts'

/** A page whose button throws from a named function, in a line the test knows (line 4). */
const appSource = `import { useState } from 'react'

function explode(times: number): number {
  throw new Error(\`Exploded \${times} times in \${import.meta.env.MODE}\`)
}

export function App() {
  const [count, setCount] = useState(2)
  return (
    <button type="button" onClick={() => setCount(explode(count))}>
      Explode
    </button>
  )
}
`

const serverSource = `import { Hono } from 'hono'
import { reportError } from './monitoring.ts'

export const app = new Hono().basePath('/api')
app.get('/health', (c) => c.json({ ok: true }))
app.get('/fail', () => {
  throw new Error('The production route failed')
})
app.onError((error, c) => {
  reportError(error)
  return c.json({ error: 'Internal server error' }, 500)
})
export default app
`

type Group = {
  representative_message: string
  representative_stack: string[]
  source: string
}

/**
 * docs/product/error-monitoring.md: the reporters in the product, against a real box, a real
 * deploy and a real browser: the preview's errors and compile errors, a deployed page's minified
 * error symbolicated back to src/App.tsx, and the production server's errors.
 */
describe('error reporters in the product', { timeout: 400_000 }, () => {
  // The owner signs up through the setup link, so is the platform admin: they may deploy.
  const setup = useOrganizationHarness({ organizationName: 'Reporters', listen: true })
  let applicationId: string
  let browser: Browser
  const as = setup.request
  const groups = async () => {
    const response = await as(`/api/applications/${applicationId}/error-groups?limit=50`)
    return ((await response.json()) as { groups: Group[] }).groups
  }
  const groupWith = async (message: string) => {
    let found: Group | undefined
    await expect
      .poll(
        async () => {
          found = (await groups()).find((group) => group.representative_message.includes(message))
          return found !== undefined
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(true)
    return found as Group
  }
  const box = () => {
    const found = setup.harness.devboxes.box(applicationId)
    if (!found) throw new Error('no box')
    return found
  }
  const clickExplode = async (page: Page) => {
    await page.getByRole('button', { name: 'Explode' }).click()
  }

  beforeAll(async () => {
    applicationId = await setup.createReadyApplication('An exploding button')
    await box().files.write('src/App.tsx', appSource)
    await box().files.write('server/app.ts', serverSource)
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    })
  })
  afterAll(() => browser?.close())

  it('reports the preview: a thrown click, then a syntax error written into App.tsx', async () => {
    const details = await as(`/api/applications/${applicationId}`)
    const { preview_url: previewUrl } = (await details.json()) as { preview_url: string }
    const token = await as('/api/org/devbox-token', {
      method: 'POST',
      body: JSON.stringify({ devbox_url: previewUrl }),
    })
    const { token: value } = (await token.json()) as { token: string }
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${previewUrl}${handOffPath(value)}`)
    await clickExplode(page)
    const preview = await groupWith('Exploded 2 times in development')
    expect(preview.source).toBe('browser')
    // Mapped with the map the dev server appends to the module, to the file's own line.
    expect(preview.representative_stack.join('\n')).toMatch(/explode \(src\/App\.tsx:4:\d+\)/)
    await box().files.write('src/App.tsx', appSource.replace('const [count', 'const [count ='))
    const compile = await groupWith('Transform failed')
    expect(compile.representative_message).toBeTruthy()
    await box().files.write('src/App.tsx', appSource)
  })

  it('symbolicates a deployed page’s minified error back to src/App.tsx, function and line', async () => {
    await setup.setVisibility(applicationId, 'public')
    const deploy = await as(`/api/applications/${applicationId}/deploy`, { method: 'POST' })
    expect(deploy.status, await deploy.clone().text()).toBe(200)
    const { prod_url: productionUrl } = (await deploy.json()) as { prod_url: string }
    const host = new URL(productionUrl).host
    const page = await (await browser.newContext()).newPage()
    await page.goto(productionUrl)
    await clickExplode(page)
    const production = await groupWith('Exploded 2 times in production')
    expect(production.representative_stack.join('\n')).toMatch(/explode \(src\/App\.tsx:4:\d+\)/)
    // The map is kept beside the deploy but never served.
    const html = await rawRequest(setup.harness.port, host, '/')
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html.body)?.[1] ?? ''
    expect(html.body).toContain('/__sprout/reporter.js')
    // The release is the deploy's id (docs/architecture/devbox.md "Deploy").
    expect(html.body).toMatch(/data-release="\d{4}-\d{2}-\d{2}T[\w-]+"/)
    expect((await rawRequest(setup.harness.port, host, script)).status).toBe(200)
    expect((await rawRequest(setup.harness.port, host, `${script}.map`)).status).toBe(404)
    // The production server reports through sprout.internal too.
    expect((await rawRequest(setup.harness.port, host, '/api/fail')).status).toBe(500)
    expect((await groupWith('The production route failed')).source).toBe('server')
  })
})
