// Who may open a deploy (docs/product/deploys.md "Who may open a deploy"): what the apps host's
// access check adds to a request of a private app. One deployed fixture app, requested by its
// member with the app's cookie while it is `organization`, and anonymously while it is `public`,
// in alternating rounds of the same minutes: a static file, and /api with the signed identity.

import { APP_COOKIE } from '../apps/server/src/devboxes/hand-off/preview-session.ts'
import {
  createTestApp,
  handOffPath,
  waitForEditorReady,
} from '../apps/server/src/testing/app-harness.ts'
import { cookieFrom, rawRequest } from '../apps/server/src/testing/raw-request.ts'
import { fullStackFixtureFiles } from '../packages/devbox/src/testing/app-server-fixture.ts'
import { get } from './lib/product-server.ts'
import { quantile } from './lib/stats.ts'

const rounds = 6
const requestsPerRound = 300

export async function benchPrivateApps(): Promise<Record<string, string>> {
  const harness = await createTestApp()
  try {
    await harness.listen()
    // The setup link's admin, who may deploy.
    const owner = await harness.signUpAdmin()
    const organizationId = await harness.createOrganization(owner, 'Bench')
    const as = (path: string, init: RequestInit = {}) =>
      harness.request(path, {
        ...init,
        user: owner,
        headers: { 'organization-id': organizationId },
      })
    const created = await as('/api/applications', {
      method: 'POST',
      body: JSON.stringify({ initial_prompt: 'A private bench app', model: 'demo' }),
    })
    const applicationId = ((await created.json()) as { id: string }).id
    await waitForEditorReady(harness, owner, organizationId, applicationId)
    const box = harness.devboxes.box(applicationId)
    for (const [name, content] of Object.entries(fullStackFixtureFiles)) {
      await box?.files.write(name, content)
    }
    const deployed = await as(`/api/applications/${applicationId}/deploy`, { method: 'POST' })
    if (deployed.status !== 200) throw new Error(`deploy: ${await deployed.text()}`)
    const { prod_url: prodUrl } = (await deployed.json()) as { prod_url: string }
    const host = new URL(prodUrl).host
    const issued = await harness.request('/api/org/devbox-token', {
      method: 'POST',
      user: owner,
      body: JSON.stringify({ devbox_url: prodUrl }),
    })
    const { token } = (await issued.json()) as { token: string }
    const cookie = cookieFrom(await rawRequest(harness.port, host, handOffPath(token)), APP_COOKIE)
    if (!cookie) throw new Error('no app cookie')
    const setVisibility = async (visibility: string) => {
      const answer = await as(`/api/applications/${applicationId}`, {
        method: 'PATCH',
        body: JSON.stringify({ visibility }),
      })
      if (answer.status !== 200) throw new Error(`visibility: ${await answer.text()}`)
    }
    const timed = async (pathname: string, headers: Record<string, string>, into: number[]) => {
      for (let index = 0; index < requestsPerRound; index++) {
        const started = performance.now()
        const answer = await get(harness.port, host, pathname, headers)
        if (answer.status !== 200) throw new Error(`${pathname}: ${answer.status}`)
        into.push(performance.now() - started)
      }
    }
    const times = { publicFile: [], privateFile: [], publicApi: [], privateApi: [] } as Record<
      string,
      number[]
    >
    // Warm both paths (the server started, the caches filled) before anything counts.
    await setVisibility('organization')
    await timed('/api/version', { cookie }, [])
    for (let round = 0; round < rounds; round++) {
      await setVisibility('public')
      await timed('/assets/app.js', {}, times.publicFile ?? [])
      await timed('/api/version', {}, times.publicApi ?? [])
      await setVisibility('organization')
      await timed('/assets/app.js', { cookie }, times.privateFile ?? [])
      await timed('/api/version', { cookie }, times.privateApi ?? [])
    }
    const p = (name: string, q: number) => quantile(times[name] ?? [], q)
    const figure = (name: string) =>
      `p50 ${p(name, 0.5).toFixed(2)} ms, p95 ${p(name, 0.95).toFixed(2)} ms`
    return {
      'static file, public (anonymous)': figure('publicFile'),
      'static file, organization (member, cookie)': figure('privateFile'),
      'access check on a static file, p95 difference': `${(p('privateFile', 0.95) - p('publicFile', 0.95)).toFixed(2)} ms`,
      '/api, public (anonymous, no identity)': figure('publicApi'),
      '/api, organization (member, signed identity)': figure('privateApi'),
      'access check and identity on /api, p95 difference': `${(p('privateApi', 0.95) - p('publicApi', 0.95)).toFixed(2)} ms`,
    }
  } finally {
    await harness.close()
  }
}
