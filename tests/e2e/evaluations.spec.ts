import { readFile } from 'node:fs/promises'
import { expect, type Page, test } from '@playwright/test'
import type { AdminConversationList } from '@sprout/protocol/api/evaluations.ts'
import { EvaluationsTab } from './pages/evaluations-tab.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { signInAsAdmin } from './support/session.ts'

test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 120_000 })

/** Starts a conversation with the Demo model; a text it has no script for gets its help text. */
async function startDemoConversation(page: Page, applicationId: string, message: string) {
  const organization = await page.request.get('/api/organizations?is_personal=true')
  const { id: organizationId } = (await organization.json()) as { id: string }
  const sent = await page.request.post(`/api/demo/applications/${applicationId}/message`, {
    headers: { Origin: new URL(page.url()).origin, 'Organization-ID': organizationId },
    data: { message, model: 'demo' },
  })
  expect(sent.ok()).toBe(true)
}

/** Waits until the admin list has each conversation with the Demo model's answer in it. */
async function waitForAnswers(page: Page, titlePrefix: string, count: number) {
  await expect
    .poll(
      async () => {
        const answer = await page.request.get('/api/admin/conversations?limit=100')
        const { conversations } = (await answer.json()) as AdminConversationList
        return conversations.filter(
          (conversation) =>
            conversation.title.startsWith(titlePrefix) && conversation.message_count >= 2,
        ).length
      },
      { timeout: 60_000 },
    )
    .toBe(count)
}

test('the admin evaluates Demo conversations offline, watches the progress and exports the results', async ({
  page,
}) => {
  await signInAsAdmin(page)
  const application = await createApplicationViaApi(page, uniqueApplicationName('Evaluated'))
  const tag = `Eval ${Date.now().toString(36)}`
  const titles = [`${tag} one`, `${tag} two`, `${tag} three`]
  for (const title of titles) await startDemoConversation(page, application.id, title)
  await waitForAnswers(page, tag, titles.length)

  const evals = new EvaluationsTab(page)
  await evals.goto()
  await expect(evals.heading).toBeVisible()
  for (const title of titles) {
    const row = evals.row(title)
    await expect(row).toContainText(application.name)
    // The admin's personal organization by its owner's name, not `personal-<id>` (issue 20).
    await expect(row.getByRole('cell').nth(2)).toHaveText('Ada Admin (personal)')
    await expect(row.getByRole('cell').nth(4)).toHaveText(/^[2-9]\d*$/)
  }
  await expect(evals.evaluateButton).toBeDisabled()
  for (const title of titles) await evals.selectBox(title).check()
  await evals.evaluateButton.click()
  await expect(evals.configureDialog).toContainText('3 conversations selected.')
  await expect(evals.configureDialog.getByLabel('Prompt template')).toHaveValue(
    'eval_conversation_challenges',
  )
  await expect(evals.configureDialog.getByLabel('Concurrent limit')).toHaveValue('3')
  // The offline evaluator: the Demo model as the judge.
  await expect(evals.configureDialog.getByRole('button', { name: /Demo/ })).toBeVisible()

  const created = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/admin/conversation-evals') &&
      response.request().method() === 'POST',
  )
  await evals.startButton.click()
  const createdResponse = await created
  expect(createdResponse.status()).toBeLessThan(300)
  expect(createdResponse.request().postDataJSON()).toMatchObject({
    concurrent_limit: 3,
    prompt_template: 'eval_conversation_challenges',
    model: 'demo',
  })
  const { eval_id: evaluationId } = (await createdResponse.json()) as { eval_id: string }

  await expect(evals.progress).toHaveText(/^\d+ \/ 3 complete$/)
  await expect(evals.progress).toHaveText('3 / 3 complete', { timeout: 60_000 })
  await expect(evals.results.getByRole('listitem')).toHaveCount(3)
  for (const title of titles) {
    const result = evals.results.getByRole('listitem').filter({ hasText: title })
    await expect(result).toContainText('Outcome:')
    await expect(result).toContainText('Ada Admin (personal)')
  }

  const csvDownload = page.waitForEvent('download')
  await evals.exportCsvButton.click()
  const csvFile = await csvDownload
  expect(csvFile.suggestedFilename()).toBe(`evaluation-${evaluationId}.csv`)
  const csv = await readFile((await csvFile.path()) ?? '', 'utf8')
  expect(csv.split('\r\n')[0]).toBe(
    'conversation_id,conversation_title,org_slug,summary,processing_time_ms',
  )
  expect(csv.endsWith('\r\n')).toBe(true)
  for (const title of titles) expect(csv).toContain(`,${title},`)

  const jsonDownload = page.waitForEvent('download')
  await evals.exportJsonButton.click()
  const jsonFile = await jsonDownload
  expect(jsonFile.suggestedFilename()).toBe(`evaluation-${evaluationId}.json`)
  const results = JSON.parse(await readFile((await jsonFile.path()) ?? '', 'utf8')) as {
    conversation_title: string
    summary: string
  }[]
  expect(results.map((result) => result.conversation_title).sort()).toEqual([...titles].sort())
  expect(results.every((result) => result.summary.includes('**Outcome:**'))).toBe(true)

  await evals.newEvaluationButton.click()
  await expect(evals.results).toBeHidden()
  await expect(evals.selectBox(titles[0] ?? '')).not.toBeChecked()
  await expect(evals.evaluateButton).toBeDisabled()

  // The execution page of the finished evaluation.
  await page.goto(`/admin/evals/${evaluationId}/execute`)
  await expect(evals.executionHeading).toBeVisible()
  await expect(evals.field('id')).toHaveText(evaluationId)
  await expect(evals.field('status')).toHaveText('completed')
  await expect(evals.field('template')).toHaveText('eval_conversation_challenges')
  await expect(evals.field('concurrency')).toHaveText('3')
  await expect(page.getByText('3 / 3 complete')).toBeVisible()
  await expect(evals.executionItems).toHaveCount(3)
  for (const title of titles) {
    const item = evals.executionItems.filter({ hasText: title })
    await expect(item.getByRole('img', { name: 'Complete' })).toBeVisible()
    await expect(item.getByTestId('evaluation-item-time')).toHaveText(/^\d+\.\ds$/)
    await expect(item).toContainText('Outcome:')
  }
  const popup = page.waitForEvent('popup')
  await evals.viewFullResults.click()
  const raw = await popup
  await expect(raw.locator('body')).toContainText(titles[0] ?? '')
  await raw.close()
  await evals.backToEvaluations.click()
  await expect(evals.heading).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/evals$/)
})
