import { formatErrorReportsList } from '@sprout/agent/tools/error-reports-list.ts'
import { parseErrorReports } from '@sprout/protocol/tool-formats/error-reports.ts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { browserErrorEvent, sdkEnvelope } from '../error-monitoring/test-envelopes.ts'
import { createOrigins } from '../http/origins.ts'
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.ts'
import { runErrorReports } from './run-error-reports.ts'

let harness: TestApp
let user: TestUser
let organizationId: string
const headers = () => ({ 'organization-id': organizationId })

async function createApplication() {
  const created = await harness.request('/api/applications', {
    method: 'POST',
    user,
    headers: headers(),
    body: JSON.stringify({ initial_prompt: 'A page that fails', model: 'demo' }),
  })
  return ((await created.json()) as { id: string }).id
}

async function reportError(applicationId: string, message: string) {
  const response = await harness.request(`/api/applications/${applicationId}`, {
    user,
    headers: headers(),
  })
  const dsn = ((await response.json()) as { dsn: string }).dsn
  const url = new URL(dsn)
  const sent = await harness.request(
    `/api/${url.pathname.slice(1)}/envelope/?sentry_key=${url.username}`,
    {
      method: 'POST',
      body: sdkEnvelope(dsn, browserErrorEvent(message)),
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    },
  )
  expect(sent.status).toBe(200)
}

beforeAll(async () => {
  harness = await createTestApp()
  user = await harness.signUp()
  organizationId = await harness.createOrganization(user, 'Agent errors org')
}, 60_000)
afterAll(() => harness.close())

it("the agent's error tools see and change the run's application's groups only", async () => {
  const applicationId = await createApplication()
  const otherId = await createApplication()
  await reportError(applicationId, "Cannot read properties of undefined (reading 'length')")
  await reportError(otherId, 'Another app broke')
  const errors = runErrorReports({
    db: harness.database.db,
    origins: createOrigins(harness.config),
    organizationId,
    applicationId,
  })

  const active = await errors.list('active', 10)
  expect(active.map((group) => group.representative_message)).toEqual([
    "Cannot read properties of undefined (reading 'length')",
  ])
  const [report] = parseErrorReports(formatErrorReportsList(active, 'active', new Date()))
  expect(report?.groupId).toBe(active[0]?.id)
  expect(report?.error).toBe("TypeError: Cannot read properties of undefined (reading 'length')")

  const groupId = active[0]?.id ?? ''
  expect((await errors.update('update', groupId, 'Looking')).status).toBe('active')
  expect((await errors.update('resolve', groupId)).status).toBe('resolved')
  expect(await errors.list('active', 10)).toEqual([])
  expect((await errors.list('resolved', 10)).map((group) => group.id)).toEqual([groupId])
  expect((await errors.update('suppress', groupId)).status).toBe('ignored')

  const others = runErrorReports({
    db: harness.database.db,
    origins: createOrigins(harness.config),
    organizationId,
    applicationId: otherId,
  })
  await expect(others.update('resolve', groupId)).rejects.toThrow('Error group not found')
}, 60_000)
