import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserErrorEvent, sdkEnvelope } from '../error-monitoring/test-envelopes.ts'
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.ts'

/** docs/product/vault.md "Redaction": an app's error reports keep none of its vault values. */
describe('error reports of an app with secrets', { timeout: 120_000 }, () => {
  let harness: TestApp
  let user: TestUser
  let organizationId: string
  let applicationId: string
  const value = `sk-${randomBytes(12).toString('hex')}`
  const as = (path: string, init: RequestInit = {}) =>
    harness.request(path, { ...init, user, headers: { 'organization-id': organizationId } })

  beforeAll(async () => {
    harness = await createTestApp()
    user = await harness.signUp()
    organizationId = await harness.createOrganization(user, 'Reports')
    const created = await as('/api/applications', {
      method: 'POST',
      body: JSON.stringify({ initial_prompt: 'A page that fails', model: 'demo' }),
    })
    applicationId = ((await created.json()) as { id: string }).id
    const set = await as(`/api/applications/${applicationId}/vault`, {
      method: 'POST',
      body: JSON.stringify({ key: 'PAYMENTS_KEY', value }),
    })
    expect(set.status).toBe(200)
  })
  afterAll(() => harness.close())

  it('stores the message, context and stack with [secret KEY] in place of the value', async () => {
    const { dsn } = (await (await as(`/api/applications/${applicationId}`)).json()) as {
      dsn: string
    }
    const url = new URL(dsn)
    const event = browserErrorEvent(`Payment failed for key ${value}`, {
      extra: { authorization: `Bearer ${value}` },
    })
    const response = await harness.request(
      `/api${url.pathname}/envelope/?sentry_key=${url.username}`,
      {
        method: 'POST',
        body: sdkEnvelope(dsn, event),
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
      },
    )
    expect(response.status).toBe(200)
    const groups = await as(`/api/applications/${applicationId}/error-groups?limit=10`)
    const groupsText = await groups.text()
    expect(groupsText).toContain('Payment failed for key [secret PAYMENTS_KEY]')
    expect(groupsText).not.toContain(value)
    const [group] = (JSON.parse(groupsText) as { groups: { id: string }[] }).groups
    const occurrences = await as(`/api/errors/groups/${group?.id}/errors?limit=10`)
    const occurrencesText = await occurrences.text()
    expect(occurrences.status).toBe(200)
    expect(occurrencesText).not.toContain(value)
  })
})
