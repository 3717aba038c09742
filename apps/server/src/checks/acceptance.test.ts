// The check's acceptance part (docs/product/checks.md "Acceptance tests") against a real box of
// the full-stack starter: its own tests pass; a failing test is named with its assertion, place
// and screenshot (readable by members only); a spec that does not load, a test that hangs, an app
// without tests and an installation that turned them off.
import type { CheckPart } from '@sprout/protocol/api/checks.ts'
import { describe, expect, it } from 'vitest'
import { imagesDirOf, storeCheckScreenshot } from '../images/service.ts'
import { call, setUpChatApplication } from '../testing/chat-client.ts'
import { ACCEPTANCE_NOTES } from './acceptance-part.ts'
import { runCheck } from './service.ts'

const failingSpec = 'tests/acceptance/guest-book.spec.ts'

describe('the acceptance part of a check', { timeout: 240_000 }, () => {
  const chat = setUpChatApplication()
  const box = () => {
    const found = chat.harness.devboxes.box(chat.applicationId)
    if (!found) throw new Error('no dev box')
    return found
  }
  const acceptanceOf = async (options: Partial<Parameters<typeof runCheck>[1]> = {}) => {
    const { db } = chat.harness.created
    const report = await runCheck(
      {
        db,
        box: box(),
        applicationId: chat.applicationId,
        storeScreenshot: (bytes) =>
          storeCheckScreenshot(
            { db, directory: imagesDirOf(chat.harness.created.config) },
            { organizationId: chat.actor.organizationId, applicationId: chat.applicationId },
            bytes,
          ),
      },
      // Only the part under test: the other parts have their own tests (checks.test.ts).
      { trigger: 'manual', runId: null, partTimeouts: { types: 1, build: 1 }, ...options },
    )
    return report.parts.find((part) => part.name === 'acceptance') as CheckPart
  }

  it("passes the starter's own tests inside the box, leaving nothing for git", async () => {
    const part = await acceptanceOf()
    expect(part, JSON.stringify(part)).toMatchObject({ status: 'passed', problemCount: 0 })
    console.log(`the starter's acceptance tests: ${part.durationMs} ms`)
    const status = await box().exec('git status --porcelain', { timeoutSeconds: 10 })
    expect(status.output.trim()).toBe('')
  })

  it('names a failing test with its assertion and place, and keeps its screenshot for members', async () => {
    await box().files.write(
      failingSpec,
      [
        "import { expect, test } from '@playwright/test'",
        '',
        "test.describe('guest book', () => {",
        "  test('shows a signed entry', async ({ page }) => {",
        "    await page.goto('/')",
        "    await expect(page.getByText('Signed by Ada')).toBeVisible({ timeout: 1000 })",
        '  })',
        '})',
        '',
      ].join('\n'),
    )
    const part = await acceptanceOf()
    expect(part.status).toBe('failed')
    expect(part.problemCount).toBe(1)
    const [found] = part.problems
    expect(found).toMatchObject({ file: failingSpec, line: 6 })
    expect(found?.message).toMatch(/^guest book › shows a signed entry: .*toBeVisible/)
    expect(found?.text).toContain('Signed by Ada')
    const screenshot = found?.screenshot
    expect(screenshot).toMatchObject({ width: 1280, height: 800 })
    const image = await chat.harness.request(`/api/images/${screenshot?.id}`, {
      user: chat.actor.user,
      headers: { 'organization-id': chat.actor.organizationId },
    })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    // Another organization's member sees no such image.
    const outsider = await chat.harness.signUp()
    const other = {
      harness: chat.harness,
      user: outsider,
      organizationId: await chat.harness.createOrganization(outsider),
    }
    expect((await call(other, `/api/images/${screenshot?.id}`)).status).toBe(404)
  })

  it('says why a spec does not load', async () => {
    await box().files.write(
      failingSpec,
      "import { test } from '@playwright/test'\ntest('broken', \n",
    )
    const part = await acceptanceOf()
    expect(part.status).toBe('failed')
    expect(part.problems[0]?.file).toBe(failingSpec)
    expect(part.problems[0]?.screenshot).toBeUndefined()
  })

  it('times out a test that never ends, its browser killed with it', async () => {
    await box().files.write(
      failingSpec,
      [
        "import { test } from '@playwright/test'",
        "test('waits forever', async ({ page }) => {",
        '  test.setTimeout(0)',
        "  await page.goto('/')",
        '  await new Promise(() => {})',
        '})',
        '',
      ].join('\n'),
    )
    const part = await acceptanceOf({ partTimeouts: { types: 1, build: 1, acceptance: 8 } })
    expect(part).toMatchObject({ status: 'timed-out', note: 'Timed out after 8 s' })
    const left = await box().exec('pgrep -f "chromium/[c]hromium" || true', { timeoutSeconds: 10 })
    expect(left.output.trim()).toBe('')
  })

  it('skips an app without acceptance tests, and an installation that turned them off', async () => {
    expect(await acceptanceOf({ acceptanceTests: false })).toMatchObject({
      status: 'skipped',
      note: 'Turned off for this installation (ACCEPTANCE_TESTS=off)',
    })
    await box().exec('rm -rf tests/acceptance', { timeoutSeconds: 10 })
    expect(await acceptanceOf()).toMatchObject({
      status: 'skipped',
      note: ACCEPTANCE_NOTES.noTests,
    })
  })
})
