import type { DemoConversation } from './demo-conversation.ts'
import {
  guestBookClient,
  guestBookClientPath,
  guestBookMigration,
  guestBookMigrationPath,
  guestBookServer,
  guestBookServerPath,
} from './demo-guest-book.ts'
import { type DemoStep, failedToolStep, nextScriptStep, writeFileStep } from './demo-steps.ts'

/**
 * The Demo model's acceptance loop (docs/product/checks.md "The Demo model"): "Build a guest book
 * with a test" writes the guest book with a bug (signing does not show the new entry) and an
 * acceptance test of signing; the check's acceptance part fails with its screenshot, the repair
 * turn reloads the entries after signing, and the next check passes.
 */

export const guestBookTestPath = 'tests/acceptance/guest-book.spec.ts'

export const guestBookTest = `import { expect, test } from '@playwright/test'

test('signs the guest book', async ({ page }) => {
  const name = \`Ada \${Date.now()}\`
  await page.goto('/')
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Message').fill('Lovely app!')
  await page.getByRole('button', { name: 'Sign the guest book' }).click()
  await expect(page.getByText(name)).toBeVisible()
})
`

const reloadLine = "      setMessage('')\n      await load()\n"
export const guestBookBugLine = "      setMessage('')\n"
export const guestBookFixLine = reloadLine

/** The page as written first: after signing it forgets to load the entries again. */
export const buggyGuestBookClient = guestBookClient.replace(reloadLine, guestBookBugLine)

/** The repair turn's message starts so (text/check-problems.ts formatCheckProblems). */
const repairRequest = /^The check after the last run found/

export const isRepairRequest = (text: string) => repairRequest.test(text)

function writeSteps(conversation: DemoConversation, tools: Set<string>): DemoStep {
  return nextScriptStep(
    [
      writeFileStep(
        "I'll build a **Guest Book**, and first its acceptance test: what you asked for, " +
          'tried in a real browser by the check after this run.',
        guestBookTestPath,
        guestBookTest,
      ),
      writeFileStep(
        'Now the table, as a new migration.',
        guestBookMigrationPath,
        guestBookMigration,
      ),
      writeFileStep('The server routes.', guestBookServerPath, guestBookServer),
      writeFileStep('And the page that calls them.', guestBookClientPath, buggyGuestBookClient),
    ],
    conversation,
    tools,
    'Done! The **Guest Book** is written, with its acceptance test in ' +
      `\`${guestBookTestPath}\`. The check after this run starts it in a browser inside the ` +
      'app’s box; if signing does not work, I get one turn to fix it.',
  )
}

function repairStep(conversation: DemoConversation): DemoStep {
  const failed = failedToolStep(conversation)
  if (failed) return failed
  if (conversation.outcomes.length === 0) {
    const seen = conversation.images?.length
      ? 'The screenshot shows the page after signing without the new entry: '
      : 'The new entry never shows: '
    return {
      text: `${seen}the page does not load the entries again after signing. Adding that.`,
      toolCalls: [
        {
          toolName: 'str_replace',
          input: {
            path: guestBookClientPath,
            old_str: guestBookBugLine,
            new_str: guestBookFixLine,
          },
        },
      ],
    }
  }
  return {
    text: 'Fixed: after signing, the page loads the entries again, so the new one shows.',
    toolCalls: [],
  }
}

/** The next step of the acceptance loop, or undefined when the message is not part of it. */
export function planTestedGuestBookStep(
  conversation: DemoConversation,
  tools: Set<string>,
): DemoStep | undefined {
  const text = conversation.userText.toLowerCase()
  const asked =
    /\bguest\s?book\b/.test(text) && /\bwith (?:a |an |its )?(?:acceptance )?tests?\b/.test(text)
  if (asked && tools.has('write_file')) return writeSteps(conversation, tools)
  if (
    isRepairRequest(conversation.userText) &&
    conversation.userText.includes(`${guestBookTestPath}:`) &&
    tools.has('str_replace')
  ) {
    return repairStep(conversation)
  }
  return undefined
}
