import { expect, type Locator, type Page, test } from '@playwright/test'
import { IMAGE_TYPE_MESSAGE } from '@sprout/protocol/api/images.ts'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { seriousViolationsIn } from './support/axe.ts'
import { signUpNewUser } from './support/session.ts'

// docs/product/images.md: images attached, pasted and refused in the chat, sent to the Demo
// model (which tells their type and size), shown as thumbnails that open the whole image.

type ImageBytes = { name: string; mimeType: string; buffer: Buffer }

/** An image the browser itself encodes from a canvas, as a screenshot tool would. */
async function canvasImage(
  page: Page,
  name: string,
  type: 'image/png' | 'image/jpeg',
  width: number,
  height: number,
): Promise<ImageBytes> {
  const base64 = await page.evaluate(
    ({ type, width, height }) => {
      const canvas = document.createElement('canvas')
      canvas.width = width
      canvas.height = height
      const context = canvas.getContext('2d')
      if (!context) throw new Error('No 2d canvas')
      context.fillStyle = '#16a34a'
      context.fillRect(0, 0, width, height)
      return canvas.toDataURL(type).split(',')[1] ?? ''
    },
    { type, width, height },
  )
  return { name, mimeType: type, buffer: Buffer.from(base64, 'base64') }
}

/** The chat's image parts: the draft's strip above the text and the transcript's thumbnails. */
class ChatImages {
  readonly chat: ChatPanel
  readonly fileInput: Locator
  readonly attachButton: Locator
  readonly draft: Locator
  readonly removeButtons: Locator
  readonly sent: Locator
  readonly viewer: Locator

  constructor(chat: ChatPanel) {
    this.chat = chat
    this.fileInput = chat.region.locator('input[type="file"]')
    this.attachButton = chat.region.getByRole('button', { name: 'Attach images' })
    this.draft = chat.region.getByRole('list', { name: 'Images to send' }).getByRole('listitem')
    this.removeButtons = chat.region.getByRole('button', { name: 'Remove image' })
    this.sent = chat.transcript.getByRole('list', { name: 'Attached images' }).getByRole('button')
    this.viewer = chat.page.getByRole('dialog')
  }

  /** A draft image, found by its alt text once uploaded. */
  ready(description: string): Locator {
    return this.draft.getByRole('img', { name: description, exact: true })
  }

  async choose(...files: ImageBytes[]) {
    await this.fileInput.setInputFiles(files)
  }

  /** Pastes a file into the message box, as the clipboard holds a screenshot. */
  async paste(file: ImageBytes) {
    await this.chat.input.evaluate(
      (textarea, { name, mimeType, base64 }) => {
        const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0))
        const clipboardData = new DataTransfer()
        clipboardData.items.add(new File([bytes], name, { type: mimeType }))
        textarea.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }),
        )
      },
      { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString('base64') },
    )
  }
}

const agentWork = { timeout: 45_000 }

test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 120_000 })

test("an image sent in the builder's chat reaches the Demo model and opens whole from the transcript", async ({
  page,
}) => {
  await signUpNewUser(page, 'Painter')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Images'))
  await new BuilderPage(page).goto(application.id)
  const chat = new ChatPanel(page)
  const images = new ChatImages(chat)
  await expect(chat.modelButton).toHaveText('Demo')

  await images.choose(await canvasImage(page, 'sketch.png', 'image/png', 64, 48))
  await expect(images.ready('Attached image 1 of 1, PNG 64 × 48')).toBeVisible()
  await chat.send('What do you see?')
  await expect(chat.input).toHaveValue('')
  await expect(images.draft).toHaveCount(0)
  await expect(chat.userMessages).toHaveText(['What do you see?'])
  const thumbnail = images.sent.first()
  await expect(images.sent).toHaveCount(1)
  await expect(thumbnail).toHaveAccessibleName('Attached image 1 of 1, PNG 64 × 48')
  await expect(chat.agentMessages.last()).toHaveText(
    'I can see 1 image: a PNG image of 64 × 48 pixels.',
    agentWork,
  )
  // The thumbnail's bytes come from the server, with the session cookie.
  await expect
    .poll(() => thumbnail.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(64)

  await thumbnail.click()
  await expect(images.viewer).toBeVisible()
  await expect(images.viewer.getByRole('heading')).toHaveText('Attached image 1 of 1')
  const whole = images.viewer.getByRole('img', { name: 'Attached image 1 of 1, PNG 64 × 48' })
  await expect.poll(() => whole.evaluate((image: HTMLImageElement) => image.naturalHeight)).toBe(48)
  expect(await seriousViolationsIn(page, 'image viewer', '[role="dialog"]')).toEqual([])
  await page.keyboard.press('Escape')
  await expect(images.viewer).toBeHidden()
  await expect(thumbnail).toBeFocused()
  // The run goes on: Escape closed the viewer, it did not interrupt.
  await expect(chat.error).toHaveCount(0)

  // The conversation's history keeps the image.
  await page.reload()
  await expect(chat.userMessages).toHaveText(['What do you see?'])
  await expect(images.sent).toHaveCount(1)
  await expect(images.sent.first()).toHaveAccessibleName('Attached image 1 of 1, PNG 64 × 48')
})

test('in an exploration, an SVG named .png is refused, and pasted and chosen images go together', async ({
  page,
}) => {
  await signUpNewUser(page, 'Collagist')
  await page.getByRole('button', { name: 'Explore an idea' }).click()
  const chat = new ChatPanel(page, 'Exploration chat')
  const images = new ChatImages(chat)
  await expect(chat.modelButton).toHaveText('Demo')

  // Read by its bytes, not its name: refused before it is uploaded, and not kept.
  await images.choose({
    name: 'x.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  })
  await expect(chat.notice).toHaveText(IMAGE_TYPE_MESSAGE)
  await expect(images.draft).toHaveCount(0)

  await images.paste(await canvasImage(page, 'pasted.png', 'image/png', 64, 48))
  await expect(images.ready('Attached image 1 of 1, PNG 64 × 48')).toBeVisible()
  await expect(chat.notice).toHaveCount(0)
  await images.choose(await canvasImage(page, 'photo.jpg', 'image/jpeg', 13, 9))
  await expect(images.ready('Attached image 2 of 2, JPEG 13 × 9')).toBeVisible()

  // Every control is reachable from the keyboard: the remove buttons before the text, the attach
  // button after it.
  await chat.input.focus()
  await page.keyboard.press('Shift+Tab')
  await expect(images.removeButtons.last()).toBeFocused()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await expect(images.attachButton).toBeFocused()
  expect(
    await seriousViolationsIn(
      page,
      'chat input with images',
      'section[aria-label="Exploration chat"]',
    ),
  ).toEqual([])

  // Images alone are not a message.
  await chat.input.press('Enter')
  await expect(chat.notice).toHaveText('Add a message to send with the images')
  await chat.send('Which is which?')
  await expect(chat.userMessages).toHaveText(['Which is which?'])
  await expect(images.sent).toHaveCount(2)
  await expect(chat.agentMessages.last()).toHaveText(
    'I can see 2 images: a PNG image of 64 × 48 pixels and a JPEG image of 13 × 9 pixels.',
    agentWork,
  )
})
