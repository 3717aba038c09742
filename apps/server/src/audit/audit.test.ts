// The audit log (docs/product/audit.md): what is recorded, from where, who reads it, and that
// writing it never fails the action it records.
import { auditEvents } from '@sprout/db/schema/audit-events.ts'
import type { AuditEvent, AuditPage } from '@sprout/protocol/api/audit.ts'
import { sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TestUser } from '../testing/app-harness.ts'
import { useOrganizationHarness } from '../testing/organization-harness.ts'

describe('the audit log', { timeout: 120_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Audited', listen: true })
  let member: TestUser
  let outsider: TestUser
  let applicationId: string

  const read = async (path: string, user: TestUser = setup.owner, headers = setup.headers()) => {
    const answer = await setup.harness.request(path, { user, headers })
    return { status: answer.status, body: (await answer.json()) as AuditPage & { error?: string } }
  }
  const eventsOf = async (query: string) =>
    (await read(`/api/admin/audit?${query}`)).body.events as AuditEvent[]

  /** Over real HTTP, as a browser: the log records the client's address and user agent. */
  const signIn = (email: string, password: string) =>
    fetch(`${setup.harness.origin.replace('localhost', '127.0.0.1')}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: setup.harness.origin,
        'user-agent': 'AuditTest/1.0',
      },
      body: JSON.stringify({ email, password }),
    })

  beforeAll(async () => {
    member = await setup.harness.signUp()
    await setup.harness.addMember(setup.organizationId, setup.owner, member)
    outsider = await setup.harness.signUp()
    await setup.harness.createOrganization(outsider, 'Elsewhere')
    applicationId = await setup.createApplication('An audited app')
  })

  it('records sign-ins, failed ones too, with the address and user agent', async () => {
    expect((await signIn(member.email, 'wrong password')).status).toBe(401)
    expect((await signIn(member.email, 'correct-horse-battery')).status).toBe(200)
    const failed = await eventsOf(`action=sign-in.failed&actor=${encodeURIComponent(member.email)}`)
    expect(failed[0]).toMatchObject({
      action: 'sign-in.failed',
      actor: { id: null, email: member.email },
      address: '127.0.0.1',
      user_agent: 'AuditTest/1.0',
      details: { method: 'password' },
    })
    const [signedIn] = await eventsOf(`action=sign-in&actor=${member.id}`)
    expect(signedIn).toMatchObject({ actor: { id: member.id, email: member.email } })
    expect(
      (await eventsOf(`action=sign-up&actor=${encodeURIComponent(member.email)}`)).length,
    ).toBe(1)
  })

  it('records a vault entry by its name, never its value, and a visibility change', async () => {
    const canary = `canary-${Date.now()}-value`
    const set = await setup.request(`/api/applications/${applicationId}/vault`, {
      method: 'POST',
      body: JSON.stringify({ key: 'API_TOKEN', value: canary }),
    })
    expect(set.status).toBe(200)
    await setup.request(`/api/applications/${applicationId}/vault/API_TOKEN`, { method: 'DELETE' })
    await setup.setVisibility(applicationId, 'people', ['friend@example.com'])
    const events = await eventsOf(`organization=${setup.organizationId}`)
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining(['vault.set', 'vault.deleted', 'app.visibility-changed']),
    )
    expect(events.find((event) => event.action === 'vault.set')).toMatchObject({
      actor: { id: setup.owner.id },
      organization_id: setup.organizationId,
      target: { type: 'vault-entry', id: applicationId, label: 'API_TOKEN' },
    })
    expect(events.find((event) => event.action === 'app.visibility-changed')?.details).toEqual({
      visibility: 'people',
      allowed_emails: 1,
    })
    const everything = await setup.harness.database.db.execute(
      sql`select count(*)::int as n from ${auditEvents} where ${auditEvents}::text like ${`%${canary}%`}`,
    )
    expect((everything as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0)
  })

  it('shows an organization admin their organization only, and members nothing', async () => {
    const own = await read('/api/organization/audit?limit=200')
    expect(own.status).toBe(200)
    expect(own.body.events.length).toBeGreaterThan(0)
    expect(own.body.events.every((event) => event.organization_id === setup.organizationId)).toBe(
      true,
    )
    // Asking for another organization changes nothing of the scope.
    const elsewhere = await read(`/api/organization/audit?organization=someone-else`)
    expect(elsewhere.body.events.every((e) => e.organization_id === setup.organizationId)).toBe(
      true,
    )
    expect((await read('/api/organization/audit', member)).status).toBe(403)
    const theirs = await read('/api/organization/audit', outsider, {} as never)
    expect(theirs.body.events.some((e) => e.organization_id === setup.organizationId)).toBe(false)
    expect((await read('/api/admin/audit', member)).status).toBe(403)
  })

  it('pages newest first, filters by date, and exports JSON Lines', async () => {
    const first = await read('/api/admin/audit?limit=2')
    expect(first.body.events).toHaveLength(2)
    expect(first.body.next).toBeTruthy()
    const second = await read(`/api/admin/audit?limit=2&before=${first.body.next}`)
    const seen = [...first.body.events, ...second.body.events].map((event) => event.id)
    expect(new Set(seen).size).toBe(seen.length)
    expect(Date.parse(first.body.events[1]?.at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(second.body.events[0]?.at ?? ''),
    )
    const future = await read('/api/admin/audit?from=2999-01-01')
    expect(future.body.events).toEqual([])
    const all = await read('/api/admin/audit?limit=200')
    const exported = await setup.harness.request('/api/admin/audit?format=jsonl', {
      user: setup.owner,
    })
    expect(exported.headers.get('content-type')).toMatch(/^application\/jsonl/)
    const lines = (await exported.text()).trim().split('\n')
    expect(lines.length).toBe(all.body.events.length)
    expect(JSON.parse(lines[0] ?? '{}').id).toBe(all.body.events[0]?.id)
    for (const bad of ['action=anything', 'from=yesterday', 'before=not-a-cursor', 'limit=0']) {
      const refused = await read(`/api/admin/audit?${bad}`)
      expect(refused.status, bad).toBe(400)
      expect(refused.body.error).toBeTruthy()
    }
  })

  it('never fails the action it records: a failed write is logged and counted', async () => {
    const db = setup.harness.database.db
    const before = (await read('/api/admin/audit?limit=1')).body as { failed_writes?: number }
    await db.execute(sql`alter table audit_events rename to audit_events_away`)
    try {
      const set = await setup.request(`/api/applications/${applicationId}/vault`, {
        method: 'POST',
        body: JSON.stringify({ key: 'STILL_SAVED', value: 'x' }),
      })
      expect(set.status).toBe(200)
    } finally {
      await db.execute(sql`alter table audit_events_away rename to audit_events`)
    }
    const after = (await read('/api/admin/audit?limit=1')).body as { failed_writes?: number }
    expect(after.failed_writes).toBe((before.failed_writes ?? 0) + 1)
    const list = await setup.request(`/api/applications/${applicationId}/vault`)
    expect(JSON.stringify(await list.json())).toContain('STILL_SAVED')
  })

  it('removes events past AUDIT_RETENTION_DAYS', async () => {
    const db = setup.harness.database.db
    await db.insert(auditEvents).values({
      id: `old-${Date.now()}`,
      action: 'sign-in',
      createdAt: new Date(Date.now() - 400 * 86_400_000),
    })
    expect(await setup.harness.created.audit.sweep()).toBeGreaterThanOrEqual(1)
    const old = await eventsOf('to=2020-01-01')
    expect(old).toEqual([])
  })
})
