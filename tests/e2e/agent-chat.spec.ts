import { expect, test } from '@playwright/test'
import { BuilderPage } from './pages/builder-page.ts'
import { ChatPanel, ConversationList } from './pages/chat-panel.ts'
import { HomePage } from './pages/home-page.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { signUpNewUser } from './support/session.ts'
import { testGate } from './support/test-gates.ts'

// The Demo model's build script (packages/agent/src/demo): reasoning, a todo list, src/App.tsx
// written from the prompt's words, `ls src`, and a report.
const buildPrompt = 'Build a recipe tracker with ingredients and ratings'
const appTitle = 'Recipe Tracker'
const doneText = `Done! ${appTitle} is in src/App.tsx`

test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 120_000 })
// The Demo model's run on a loaded machine: each step takes a while.
const agentWork = { timeout: 45_000 }

test('creating an app with the Demo model: the agent reasons, plans, writes, runs and reports', async ({
  page,
}) => {
  await signUpNewUser(page, 'Maker')
  const home = new HomePage(page)
  await home.openCreateDialog()
  await home.createDialog.fill({ description: buildPrompt })
  await expect(home.createDialog.modelSelector.button.last()).toHaveText('Demo')
  await home.createDialog.createButton.click()
  await page.waitForURL(/\/applications\/[^/]+\/edit$/, { timeout: DEVBOX_READY_TIMEOUT + 30_000 })

  const chat = new ChatPanel(page)
  const conversations = new ConversationList(page)
  // The first message is sent as the editor opens; on a loaded machine the run can take a while.
  await expect(conversations.item('Build a recipe tracker with ingredients')).toBeVisible(agentWork)
  await expect(chat.userMessages).toHaveText([buildPrompt], agentWork)
  await expect(chat.reasoning.first()).toContainText(`The request is for "${appTitle}"`, agentWork)
  await expect(chat.agentMessages.first()).toContainText(
    `I'll build ${appTitle} for you`,
    agentWork,
  )
  await expect(chat.agentMessages.last()).toContainText(doneText, agentWork)

  // Every todos call shows its list; the last one has both tasks done.
  const todos = chat.toolCall(/^Tasks: Recipe Tracker/)
  await expect(todos).toHaveCount(3)
  await expect(todos.last().getByRole('button').first()).toHaveText(`Tasks: ${appTitle} (2/2)`)
  await expect(todos.last().locator('li[data-status="complete"]')).toHaveCount(2)

  // Once the run has closed the transcript is regrouped no more, so a click stays expanded.
  await expect(chat.interruptButton).toHaveCount(0, agentWork)
  // The file write expands to the content the agent wrote.
  const write = chat.toolCall('Write: src/App.tsx')
  await write.getByRole('button', { name: 'Write: src/App.tsx' }).click()
  await expect(write).toContainText(`const title = "${appTitle}"`)

  // The shell command with its default timeout, and its output once expanded.
  const shell = chat.toolCall('$ (5s) ls src')
  await shell.getByRole('button', { name: '$ (5s) ls src' }).click()
  await expect(shell).toContainText('App.tsx')
  await expect(chat.contextUsage).toContainText(/^Context: [\d,]+ \/ [\d,]+ \(\d+%\)$/)
  await expect(chat.interruptButton).toHaveCount(0)

  // The preview shows what the agent wrote.
  const builder = new BuilderPage(page)
  await expect(builder.frame.getByRole('heading', { name: appTitle })).toBeVisible({
    timeout: 60_000,
  })
})

test('the Demo model rolls dice, tells the time and adds a random number in a new conversation', async ({
  page,
}) => {
  await signUpNewUser(page, 'Gamer')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Dice'))
  await new BuilderPage(page).goto(application.id)
  const chat = new ChatPanel(page)
  const conversations = new ConversationList(page)
  await expect(conversations.emptyText).toBeVisible()
  await expect(chat.region.getByText('Start a new conversation')).toBeVisible()
  await expect(chat.modelButton).toHaveText('Demo')

  await chat.send('roll 2d6')
  await expect(chat.input).toHaveValue('')
  await expect(conversations.item('Roll 2d6')).toBeVisible()
  const dice = chat.toolCall('Roll 2d6')
  await expect(dice).toBeVisible()
  await expect(chat.agentMessages.last()).toContainText(
    /Rolled 2 d6 dice: \[\d, \d\] \(total: \d+\)/,
  )
  await dice.getByRole('button', { name: 'Roll 2d6' }).click()
  await expect(dice.getByTestId('dice-result')).toContainText('2d6')
  await expect(dice.getByRole('list', { name: 'Rolls' }).getByRole('listitem')).toHaveCount(2)
  await expect(dice.getByTestId('dice-result')).toContainText('Total:')

  // The run closes (its checkpoint) after the answer: a message sent before that would be queued.
  await expect(chat.interruptButton).toBeHidden()
  await chat.send('add a random number to 5')
  const addRandom = chat.toolCall('Add random: 5')
  await expect(chat.agentMessages.last()).toContainText('for a final result of')
  await addRandom.getByRole('button', { name: 'Add random: 5' }).click()
  await expect(addRandom.getByTestId('add-random-result')).toContainText('Random value added')

  await expect(chat.interruptButton).toBeHidden()
  await chat.send('what time is it')
  await expect(chat.agentMessages.last()).toContainText('The current time is')
  await expect(chat.userMessages).toHaveText([
    'roll 2d6',
    'add a random number to 5',
    'what time is it',
  ])

  // A new conversation starts empty; the old one is still in the list and opens again.
  await conversations.newConversationButton.click()
  await expect(chat.region.getByText('Start a new conversation')).toBeVisible()
  await expect(chat.userMessages).toHaveCount(0)
  await conversations.item('Roll 2d6').click()
  await expect(chat.userMessages).toHaveText([
    'roll 2d6',
    'add a random number to 5',
    'what time is it',
  ])
})

test('a message sent while the agent works is queued, then delivered', async ({ page }) => {
  await signUpNewUser(page, 'Queuer')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Queue'))
  await new BuilderPage(page).goto(application.id)
  const chat = new ChatPanel(page)
  const gate = testGate()
  const prompt = `${buildPrompt} ${gate.token}`
  await chat.send(prompt)
  // The run has planned and is held before its next step.
  await expect(chat.toolCall(/^Tasks: /)).toHaveCount(1, agentWork)
  await expect(chat.interruptButton).toBeVisible()

  const followUp = 'Also make the header green'
  await chat.send(followUp)
  await expect(chat.queued).toContainText(followUp)
  await expect(chat.input).toHaveValue('')
  await expect(chat.userMessages).toHaveText([prompt])

  // Released, the run takes the queued message at its next step boundary; the Demo model cannot
  // act on it and finishes the app it was building (issue 20), not a new one.
  await gate.release()
  await expect(chat.userMessages).toHaveText([prompt, followUp], agentWork)
  await expect(chat.queued).toHaveCount(0)
  await expect(chat.interruptButton).toHaveCount(0, agentWork)
  await expect(chat.agentMessages.last()).toContainText(doneText)
  await expect(chat.toolCall('Write: src/App.tsx')).toHaveCount(1)
})

test('Escape interrupts the agent from anywhere on the screen: User interrupted, with retry', async ({
  page,
}) => {
  await signUpNewUser(page, 'Stopper')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Stop'))
  await new BuilderPage(page).goto(application.id)
  const chat = new ChatPanel(page)
  const gate = testGate()
  await chat.send(`${buildPrompt} ${gate.token}`)
  await expect(chat.toolCall(/^Tasks: /)).toHaveCount(1, agentWork)
  await expect(chat.interruptButton).toBeVisible()

  // Focus leaves the chat: a click on the transcript puts it on the page itself.
  await chat.transcript.click({ position: { x: 5, y: 5 } })
  await expect(chat.input).not.toBeFocused()
  await page.keyboard.press('Escape')
  await expect(chat.error).toHaveText('User interrupted (click to retry)')
  await expect(chat.interruptButton).toHaveCount(0)
  // Held at the gate, the run never wrote the app.
  await expect(chat.toolCall('Write: src/App.tsx')).toHaveCount(0)

  // Retrying runs the agent again over the stored history: its last words are the interrupted
  // answer, so it is asked to continue, and the Demo model finishes the app from the step after
  // its plan instead of answering with its help (issue 20).
  await gate.release()
  await chat.error.click()
  await expect(chat.agentMessages.last()).toContainText(doneText, agentWork)
  await expect(chat.interruptButton).toHaveCount(0, agentWork)
  await expect(chat.toolCall('Write: src/App.tsx')).toHaveCount(1)
  await expect(chat.toolCall(/^Tasks: /)).toHaveCount(3)
  await expect(chat.transcript).not.toContainText('I am the Demo model')
  // The interruption stays in the transcript, no longer offering a retry.
  await expect(chat.error).toHaveText('User interrupted')
})

test('reloading mid-run continues the stream without duplicates', async ({ page }) => {
  await signUpNewUser(page, 'Reloader')
  const application = await createApplicationViaApi(page, uniqueApplicationName('Reload'))
  await new BuilderPage(page).goto(application.id)
  const chat = new ChatPanel(page)
  await chat.send(buildPrompt)
  await expect(chat.reasoning.first()).toBeVisible()
  await page.reload()
  await expect(chat.agentMessages.last()).toContainText(doneText, { timeout: 30_000 })
  await expect(chat.userMessages).toHaveText([buildPrompt])
  await expect(chat.reasoning).toHaveCount(1)
  await expect(chat.toolCall(/^Tasks: /)).toHaveCount(3)
  await expect(chat.toolCall('Write: src/App.tsx')).toHaveCount(1)
  await expect(chat.toolCall('$ (5s) ls src')).toHaveCount(1)
  await expect(chat.agentMessages.filter({ hasText: doneText })).toHaveCount(1)
})
