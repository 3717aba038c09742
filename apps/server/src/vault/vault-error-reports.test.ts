import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { browserErrorEvent, sdkEnvelope } from '../testing/sentry-envelopes.ts'

/** docs/product/vault.md "Redaction": an app's error reports keep none of its vault values. */
describe('error reports of an app with secrets', { timeout: 120_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Reports' })
  let applicationId: string
  const value = `sk-${randomBytes(12).toString('hex')}`
  const as = (path: string, init: RequestInit = {}) =>
    setup.harness.request(path, {
      ...init,
      user: setup.owner,
      headers: { 'organization-id': setup.organizationId },
    })

  beforeAll(async () => {
    applicationId = await setup.createApplication('A page that fails')
    const set = await as(`/api/applications/${applicationId}/vault`, {
      method: 'POST',
      body: JSON.stringify({ key: 'PAYMENTS_KEY', value }),
    })
    expect(set.status).toBe(200)
  })

  it('stores the message, context and stack with [secret KEY] in place of the value', async () => {
    const { dsn } = (await (await as(`/api/applications/${applicationId}`)).json()) as {
      dsn: string
    }
    const url = new URL(dsn)
    const event = browserErrorEvent(`Payment failed for key ${value}`, {
      extra: { authorization: `Bearer ${value}` },
    })
    const response = await setup.harness.request(
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

  it('redacts every string of an event, whatever its field, before anything is stored', async () => {
    const { dsn } = (await (await as(`/api/applications/${applicationId}`)).json()) as {
      dsn: string
    }
    const url = new URL(dsn)
    const inText = `with ${value} inside`
    // The value in every field an SDK sends, and in keys too; 'release' once reached error_groups.
    const fields = {
      release: `app@${value}`,
      dist: value,
      environment: inText,
      server_name: inText,
      transaction: `GET /pay/${value}`,
      platform: 'node',
      logger: inText,
      modules: { [value]: '1.0.0' },
      message: { formatted: inText, message: inText, params: [value] },
      logentry: { formatted: inText },
      tags: { route: inText, [`key-${value}`]: 'tagged' },
      user: { id: value, email: `${value}@example.com`, ip_address: inText, data: { v: value } },
      contexts: {
        browser: { name: `Chrome ${value}`, version: value },
        os: { name: inText, version: value },
        runtime: { name: 'node', version: value },
        app: { deep: { deeper: { deepest: [inText] } } },
      },
      extra: { authorization: `Bearer ${value}`, nested: [{ list: [inText] }] },
      request: {
        url: `http://app.preview.localhost:3000/pay?key=${value}`,
        method: 'POST',
        query_string: `key=${value}`,
        data: { card: value },
        cookies: { session: value },
        headers: { 'User-Agent': `agent ${value}`, Authorization: `Bearer ${value}` },
        env: { KEY: value },
      },
      breadcrumbs: [
        { category: inText, message: inText, data: { url: `/pay?key=${value}` }, level: 'info' },
      ],
      fingerprint: ['{{ default }}', value],
      exception: {
        values: [
          {
            type: `Cause${value}`,
            value: inText,
            module: inText,
            mechanism: { type: 'generic', data: { reason: value } },
            stacktrace: {
              frames: [
                {
                  function: `handler_${value}`,
                  filename: `/app/src/${value}.ts`,
                  abs_path: `/app/src/${value}.ts`,
                  module: inText,
                  lineno: 3,
                  colno: 1,
                  context_line: inText,
                  pre_context: [inText],
                  post_context: [inText],
                  vars: { key: value },
                  in_app: true,
                },
              ],
            },
          },
        ],
      },
    }
    // Some fields in shapes the SDK's types do not name (a structured message) but SDKs send.
    const event = { ...browserErrorEvent('unused'), ...fields } as unknown as Parameters<
      typeof sdkEnvelope
    >[1]
    const response = await setup.harness.request(
      `/api${url.pathname}/envelope/?sentry_key=${url.username}`,
      {
        method: 'POST',
        body: sdkEnvelope(dsn, event, { sdk: 'sentry.javascript.node' }),
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': `ua ${value}` },
      },
    )
    expect(response.status).toBe(200)
    for (const table of ['error_groups', 'error_instances']) {
      const rows = (await setup.harness.database.db.execute(
        sql.raw(`select * from "${table}" where application_id = '${applicationId}'`),
      )) as unknown as { rows: unknown[] }
      const stored = JSON.stringify(rows.rows)
      expect(rows.rows.length, table).toBeGreaterThan(0)
      expect(stored, table).not.toContain(value)
      expect(stored, table).toContain('[secret PAYMENTS_KEY]')
    }
    const groups = (await (
      await as(`/api/applications/${applicationId}/error-groups?limit=10`)
    ).json()) as { groups: { id: string; error_type: string; representative_message: string }[] }
    const group = groups.groups.find((found) => found.error_type.startsWith('Cause'))
    expect(group?.error_type).toBe('Cause[secret PAYMENTS_KEY]')
    expect(group?.representative_message).toBe('with [secret PAYMENTS_KEY] inside')
    const occurrences = await (await as(`/api/errors/groups/${group?.id}/errors?limit=10`)).text()
    expect(occurrences).not.toContain(value)
    expect(occurrences).toContain('app@[secret PAYMENTS_KEY]')
  })
})
