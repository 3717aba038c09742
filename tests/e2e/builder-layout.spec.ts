import { expect, type Locator, type Page, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { signInAsAdmin, signUpNewUser } from './support/session.ts'

// Issue 20: the builder is usable on a phone, and toasts never cover the chat's input.
const phone = { width: 390, height: 844 }
const desktop = { width: 1280, height: 800 }

type Box = { x: number; y: number; width: number; height: number }

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox()
  if (!box) throw new Error('The element has no box; is it visible?')
  return box
}

function overlaps(first: Box, second: Box): boolean {
  return (
    first.x < second.x + second.width &&
    second.x < first.x + first.width &&
    first.y < second.y + second.height &&
    second.y < first.y + first.height
  )
}

/** The chat's input box: the text area, the model picker and the send button. */
function composerOf(chat: ChatPanel): Locator {
  return chat.input.locator('xpath=..')
}

test('on a phone the builder shows the chat and the preview as tabs and keeps both', async ({
  page,
}) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 60_000)
  await signUpNewUser(page, 'Pocket')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Pocket'))
  await page.setViewportSize(phone)
  const builder = new BuilderPage(page)
  const chat = new ChatPanel(page)
  await builder.goto(application.id)

  await expect(builder.chatTab).toHaveAttribute('aria-selected', 'true')
  await expect(builder.previewTab).toHaveAttribute('aria-selected', 'false')
  await expect(chat.input).toBeVisible()
  await expect(builder.previewPane).toBeHidden()
  // The chat takes the width but for the collapsed conversation list's 48px rail.
  expect((await boxOf(chat.region)).width).toBeGreaterThanOrEqual(phone.width - 50)
  await chat.input.fill('Make the header green')

  await builder.previewTab.click()
  await expect(builder.previewTab).toHaveAttribute('aria-selected', 'true')
  await expect(chat.region).toBeHidden()
  await expect(builder.iframe).toBeVisible()
  expect(Math.round((await boxOf(builder.previewPane)).width)).toBe(phone.width)
  // A mark on the frame survives only if the frame is never unmounted.
  await builder.iframe.evaluate((frame) => frame.setAttribute('data-kept', 'yes'))

  // The arrow keys move between the tabs.
  await builder.previewTab.press('ArrowLeft')
  await expect(builder.chatTab).toBeFocused()
  await expect(builder.chatTab).toHaveAttribute('aria-selected', 'true')
  await expect(chat.input).toHaveValue('Make the header green')
  await builder.chatTab.press('ArrowRight')
  await expect(builder.iframe).toHaveAttribute('data-kept', 'yes')

  // The open conversation list lies over the chat instead of squeezing it.
  await builder.chatTab.click()
  const chatWidth = (await boxOf(chat.region)).width
  await page.getByRole('button', { name: 'Expand conversations' }).click()
  await expect(page.getByRole('heading', { name: 'Conversations' })).toBeVisible()
  expect((await boxOf(chat.region)).width).toBeGreaterThanOrEqual(chatWidth)
  await page.getByRole('button', { name: 'New Conversation' }).click()
  await expect(page.getByRole('heading', { name: 'Conversations' })).toBeHidden()

  // Wide again: no tabs, the chat and the 250px preview side by side.
  await page.setViewportSize(desktop)
  await expect(builder.paneTabs).toHaveCount(0)
  await expect(chat.input).toBeVisible()
  await expect(builder.previewPane).toBeVisible()
  await expect.poll(() => builder.paneWidth()).toBe(250)
  await expect(builder.iframe).toHaveAttribute('data-kept', 'yes')
})

/** A failed build with a long output: the tallest toast there is. */
async function failDeploys(page: Page, applicationId: string) {
  const output = Array.from({ length: 40 }, (_, line) => `src/App.tsx:${line + 1} error`)
  await page.route(`**/api/applications/${applicationId}/deploy`, (route) =>
    route.fulfill({ status: 422, json: { error: ['vite build failed', ...output].join('\n') } }),
  )
}

async function expectClear(toast: Locator, chat: ChatPanel) {
  const sendButton = chat.region.getByRole('button', { name: 'Send message' })
  await chat.input.fill('Still reachable')
  const toastBox = await boxOf(toast)
  expect(overlaps(toastBox, await boxOf(composerOf(chat)))).toBe(false)
  expect(overlaps(toastBox, await boxOf(sendButton))).toBe(false)
  // Nothing lies on top of the send button: a click would reach it. (A covered button fails the
  // trial click at its timeout, so the bound is a safety net for a loaded machine, not the check.)
  await sendButton.click({ trial: true, timeout: 10_000 })
}

test('the deploy toast never covers the chat input or its send button', async ({ page }) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 60_000)
  await signInAsAdmin(page)
  const application = await createApplicationViaApi(page, uniqueApplicationName('Toast'))
  await failDeploys(page, application.id)
  const builder = new BuilderPage(page)
  const chat = new ChatPanel(page)

  await builder.goto(application.id)
  await builder.deployButton.click()
  await expect(builder.deployNotice).toContainText('Deployment failed: vite build failed')
  await expectClear(builder.deployNotice, chat)
  // Nor does it cover the preview's toolbar: deploying again stays possible.
  await builder.deployButton.click({ trial: true, timeout: 10_000 })
  await builder.deployNotice.getByRole('button', { name: 'Dismiss' }).click()

  await page.setViewportSize(phone)
  await builder.previewTab.click()
  await builder.deployButton.click()
  await expect(builder.deployNotice).toContainText('Deployment failed: vite build failed')
  await builder.deployButton.click({ trial: true, timeout: 10_000 })
  await builder.chatTab.click({ timeout: 10_000 })
  await expectClear(builder.deployNotice, chat)
})
