import { formatErrorReportsList } from '@sprout/agent/tools/error-reports-list.ts'
import { parseErrorReports } from '@sprout/protocol/tool-formats/error-reports.ts'
import { expect, it } from 'vitest'
import { createOrigins } from '../http/origins.ts'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { browserErrorEvent, sdkEnvelope } from '../testing/sentry-envelopes.ts'
import { runErrorReports } from './run-error-reports.ts'

const setup = useOrganizationHarness({ organizationName: 'Agent errors org', timeoutMs: 60_000 })
const headers = setup.headers

async function createApplication() {
  const created = await setup.harness.request('/api/applications', {
    method: 'POST',
    user: setup.owner,
    headers: headers(),
    body: JSON.stringify({ initial_prompt: 'A page that fails', model: 'demo' }),
  })
  return ((await created.json()) as { id: string }).id
}

async function reportError(applicationId: string, message: string) {
  const response = await setup.harness.request(`/api/applications/${applicationId}`, {
    user: setup.owner,
    headers: headers(),
  })
  const dsn = ((await response.json()) as { dsn: string }).dsn
  const url = new URL(dsn)
  const sent = await setup.harness.request(
    `/api/${url.pathname.slice(1)}/envelope/?sentry_key=${url.username}`,
    {
      method: 'POST',
      body: sdkEnvelope(dsn, browserErrorEvent(message)),
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    },
  )
  expect(sent.status).toBe(200)
}

it("the agent's error tools see and change the run's application's groups only", async () => {
  const applicationId = await createApplication()
  const otherId = await createApplication()
  await reportError(applicationId, "Cannot read properties of undefined (reading 'length')")
  await reportError(otherId, 'Another app broke')
  const errors = runErrorReports({
    db: setup.harness.database.db,
    origins: createOrigins(setup.harness.config),
    organizationId: setup.organizationId,
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
    db: setup.harness.database.db,
    origins: createOrigins(setup.harness.config),
    organizationId: setup.organizationId,
    applicationId: otherId,
  })
  await expect(others.update('resolve', groupId)).rejects.toThrow('Error group not found')
}, 60_000)
