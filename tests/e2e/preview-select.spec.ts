import { expect, type Locator, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { signUpNewUser } from './support/session.ts'

// docs/product/builder.md "Select mode": pointing at an element of the preview puts a chip
// naming its source location in the chat's input; the message carries it to the agent.

/**
 * The centre of an element of the preview in the page's coordinates: the iframe is scaled with a
 * CSS transform, so the mouse is moved there itself rather than by the locator's own hit test.
 */
async function previewPoint(iframe: Locator, element: Locator) {
  const frameBox = await iframe.boundingBox()
  const inner = await element.evaluate((node) => {
    const box = node.getBoundingClientRect()
    return { x: box.x + box.width / 2, y: box.y + box.height / 2, width: window.innerWidth }
  })
  if (!frameBox) throw new Error('The preview is not shown')
  const scale = frameBox.width / inner.width
  return { x: frameBox.x + inner.x * scale, y: frameBox.y + inner.y * scale }
}

test('Select mode outlines, picks an element into the chat, leaves on Escape, and the Demo names its file and line', async ({
  page,
}) => {
  test.setTimeout(DEVBOX_READY_TIMEOUT + 90_000)
  await signUpNewUser(page, 'Pointer')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Pointing'))
  const builder = new BuilderPage(page)
  const chat = new ChatPanel(page)
  await builder.goto(application.id)
  const heading = builder.frame.getByRole('heading', { name: 'Your app starts here.' })
  await expect(heading).toBeVisible({ timeout: 30_000 })
  // The starters' plugin tags the dev server's elements with where they are written.
  const source = (await heading.getAttribute('data-sprout-source')) ?? ''
  expect(source).toMatch(/^src\/App\.tsx:\d+:\d+$/)
  const location = source.replace(/:\d+$/, '')

  const select = builder.toolbar.getByRole('button', { name: 'Select' })
  const outline = builder.frame.locator('[data-sprout-select-outline]')
  const chips = chat.region
    .getByRole('list', { name: 'Selected elements to send' })
    .getByRole('listitem')
  await select.click()
  await expect(select).toHaveAttribute('aria-pressed', 'true')
  // The pane widens as the preview takes the focus: measured once it has.
  await expect.poll(() => builder.paneWidth()).toBe(500)
  const point = await previewPoint(builder.iframe, heading)
  await page.mouse.move(point.x, point.y)
  await expect(outline).toBeVisible()
  await expect(outline).toHaveText(`h1 · ${location}`)
  await page.mouse.click(point.x, point.y)
  await expect(chips).toHaveCount(1)
  await expect(chips.first()).toHaveText(`<h1>${location}`)

  // Escape inside the preview leaves the mode; the page is the app's again.
  await page.keyboard.press('Escape')
  await expect(select).toHaveAttribute('aria-pressed', 'false')
  await expect(outline).toHaveCount(0)
  // Toggling the button again leaves it too.
  await select.click()
  await expect(select).toHaveAttribute('aria-pressed', 'true')
  await select.click()
  await expect(select).toHaveAttribute('aria-pressed', 'false')

  await chat.input.fill('Make this heading friendlier')
  await chat.input.press('Enter')
  await expect(chips).toHaveCount(0)
  const sentChip = chat.userMessages.last().getByTestId('message-selection')
  await expect(sentChip).toHaveText(`<h1>${location}`)
  await expect(chat.agentMessages.last()).toHaveText(`You pointed at the <h1> in ${location}.`)

  // Kept with the message: a reload shows the chip again.
  await page.reload()
  await expect(chat.userMessages.last().getByTestId('message-selection')).toHaveText(
    `<h1>${location}`,
  )
})
