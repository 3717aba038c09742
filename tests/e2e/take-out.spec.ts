import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { startGitHttpServer } from '../../apps/server/src/testing/git-http-server.ts'
import { BuilderPage } from './pages/builder-page.ts'
import { HomePage } from './pages/home-page.ts'
import { SignUpPage } from './pages/sign-up-page.ts'
import {
  createApplicationViaApi,
  DEVBOX_READY_TIMEOUT,
  uniqueApplicationName,
} from './support/applications.ts'
import { ownServer } from './support/own-server.ts'
import { adminUser } from './support/users.ts'

const run = promisify(execFile)

// docs/product/versions.md "Download", "Push to Git": its own server, so the loopback git server
// can be listed in GIT_ALLOWED_HOSTS.
const gitPort = 3211
const token = 'e2e-push-token-7c1d'
const server = ownServer(3212, { GIT_ALLOWED_HOSTS: `127.0.0.1:${gitPort}` })
let gitServer: Awaited<ReturnType<typeof startGitHttpServer>>
test.use({ baseURL: server.baseURL })
test.describe.configure({ timeout: DEVBOX_READY_TIMEOUT + 120_000 })
test.beforeAll(async () => {
  test.setTimeout(120_000)
  gitServer = await startGitHttpServer(token, gitPort)
  await server.start()
})
test.afterAll(async () => {
  await server.stop()
  await gitServer?.close()
})

test('Download gives a zip of the code; Push to Git lands the history in the git server', async ({
  page,
}, testInfo) => {
  await new SignUpPage(page).goto()
  await new SignUpPage(page).signUp(adminUser)
  await new HomePage(page).heading.waitFor()
  const application = await createApplicationViaApi(page, uniqueApplicationName('Take out'))
  const builder = new BuilderPage(page)
  await builder.goto(application.id)
  await expect(builder.iframe).toBeVisible({ timeout: DEVBOX_READY_TIMEOUT })

  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/\.zip$/)
  const zipPath = testInfo.outputPath('app.zip')
  await download.saveAs(zipPath)
  const entries = (await run('unzip', ['-Z1', zipPath])).stdout.split('\n')
  expect(entries).toContain('package.json')
  expect(entries).toContain('src/App.tsx')
  expect(entries.some((entry) => entry.startsWith('node_modules/'))).toBe(false)
  expect(entries.some((entry) => entry.startsWith('.git/'))).toBe(false)

  const remote = await gitServer.createRepository('e2e')
  await page.getByRole('button', { name: 'Push to Git' }).click()
  const dialog = page.getByRole('dialog', { name: 'Push to Git' })
  await dialog.getByLabel('Remote URL').fill(remote)
  await dialog.getByLabel('Token').fill(token)
  await dialog.getByRole('button', { name: 'Save and push' }).click()
  const result = dialog.getByRole('status')
  await expect(result).toContainText('Pushed ', { timeout: 60_000 })
  const log = await gitServer.log('e2e')
  expect(log.length).toBeGreaterThan(0)
  const shortCommit = /Pushed (\w+) to main\./.exec((await result.textContent()) ?? '')?.[1] ?? '-'
  expect(log[0]?.startsWith(shortCommit)).toBe(true)
  await expect(dialog.getByLabel('Token')).toHaveAttribute('placeholder', 'Unchanged')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})
