import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel } from './pages/chat-panel.ts'
import { CodeTab } from './pages/code-tab.ts'
import { HistoryPanel } from './pages/history-panel.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { signUpNewUser } from './support/session.ts'
import { testGate } from './support/test-gates.ts'

// docs/product/versions.md "Code": the user edits src/App.tsx by hand, saves with Ctrl+S, the
// preview shows it, and the edit is a version 'Edited by {name}: src/App.tsx' before the next run.
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 180_000 })
const agentWork = { timeout: 60_000 }

test('Code tab: edit src/App.tsx, save with Ctrl+S, the preview changes, an "Edited by" version', async ({
  page,
}) => {
  await signUpNewUser(page, 'Coder')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Code'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  const code = new CodeTab(page)
  await expect(builder.frame.getByText('SQLite database')).toBeVisible(agentWork)

  await code.tab.click()
  await expect(code.treeItem('src')).toHaveAttribute('aria-expanded', 'true')
  await expect(code.treeItem('node_modules')).toHaveCount(0)
  await expect(code.editor).toContainText("title: 'SQLite database'")
  await code.replaceAll('SQLite database', 'Handmade database')
  await expect(code.unsavedMarker).toBeVisible()
  await page.keyboard.press('ControlOrMeta+s')
  await expect(code.unsavedMarker).toBeHidden()
  await expect(code.saveButton).toBeDisabled()

  // The dev server watches the files: the preview shows the edit by itself.
  await code.previewTab.click()
  await expect(builder.frame.getByText('Handmade database')).toBeVisible(agentWork)

  // Switching tabs keeps the Code tab's state: the file is still open with the saved text.
  await code.tab.click()
  await expect(code.editor).toContainText("title: 'Handmade database'")

  // The next run commits the hand edit first, as its own version.
  const chat = new ChatPanel(page)
  await chat.send('Build a recipe tracker with ingredients and ratings')
  await expect(chat.agentMessages.last()).toContainText('Done! Recipe Tracker', agentWork)
  await expect(chat.interruptButton).toBeHidden(agentWork)
  // The run was told, in its context, which files the user changed by hand (the Demo model says it).
  await expect(
    chat.agentMessages.getByText(
      'Since my last run: The user edited these files by hand: src/App.tsx.',
    ),
  ).toBeVisible()
  const history = new HistoryPanel(page)
  await code.previewTab.click()
  await history.openButton.click()
  // Version 1 is the starter; the hand edit was committed before the run's own version.
  const edited = history.row('Edited by Coder Tester: src/App.tsx')
  await expect(edited).toHaveCount(1)
  await expect(edited).toContainText('Version 2')
})

test('Code tab: read-only while the agent works; a file it changed meanwhile is a conflict', async ({
  page,
}) => {
  await signUpNewUser(page, 'Editor')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Conflict'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  const code = new CodeTab(page)
  await code.tab.click()
  await expect(code.editor).toContainText("title: 'SQLite database'")
  await code.replaceAll('SQLite database', 'Mine database')
  await expect(code.unsavedMarker).toBeVisible()

  // A run held open by a test gate (docs/decisions/013-test-gates.md).
  const chat = new ChatPanel(page)
  const gate = testGate()
  await chat.send(`Build a plant diary with watering dates ${gate.token}`)
  await expect(chat.interruptButton).toBeVisible(agentWork)
  await expect(code.banner).toHaveText('The agent is working: editing is paused until it finishes.')
  await expect(code.saveButton).toBeDisabled()
  await gate.release()
  await expect(chat.interruptButton).toBeHidden(agentWork)
  await expect(code.banner).toBeHidden()

  // The agent rewrote src/App.tsx: Save says so; Reload shows the agent's version.
  await expect(code.editor).toContainText("'Mine database'")
  await code.saveButton.click()
  await expect(code.dialog).toBeVisible()
  await code.dialog.getByRole('button', { name: 'Reload' }).click()
  await expect(code.dialog).toBeHidden()
  await expect(code.editor).toContainText('Plant Diary')
  await expect(code.unsavedMarker).toBeHidden()
})

test('Code tab on a phone: a builder tab beside Chat and Preview', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signUpNewUser(page, 'Pocket')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Pocket'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  const code = new CodeTab(page)
  await builder.paneTabs.getByRole('tab', { name: 'Code' }).click()
  await expect(code.editor).toContainText("title: 'SQLite database'")
  await expect(builder.previewPane).toBeHidden()
  await builder.previewTab.click()
  await expect(code.region).toBeHidden()
  await expect(builder.frame.getByText('SQLite database')).toBeVisible(agentWork)
})
