import { createHash } from 'node:crypto'
import { requestDevServer } from '@sprout/devbox/dev-server-request.ts'
import { beforeAll, describe, expect, it } from 'vitest'
import { waitForEditorReady } from '../testing/app-harness.ts'
import { useOrganizationHarness } from '../testing/organization-harness.ts'
import { rawRequest } from '../testing/raw-request.ts'
import { vaultCheckRoute } from '../testing/vault-check-route.ts'

const checkRoute = vaultCheckRoute('CHECK_KEY')
const hashOf = (value: string) => createHash('sha256').update(value).digest('hex')

/** docs/product/vault.md "Where values go": the app's servers get the vault's values. */
describe("the vault reaches the app's dev and production servers", { timeout: 300_000 }, () => {
  const setup = useOrganizationHarness({ organizationName: 'Servers', listen: true })
  let applicationId: string
  let appsHost: string
  const headers = setup.headers
  const setSecret = (value: string) =>
    setup.harness.request(`/api/applications/${applicationId}/vault`, {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
      body: JSON.stringify({ key: 'CHECK_KEY', value }),
    })
  const devServerHash = async () => {
    const target = setup.harness.devboxes.devServerTarget(applicationId)
    if (!target) return 'not running'
    const answer = await requestDevServer(target, '/api/vault-check').catch(() => undefined)
    if (answer?.status !== 200) return `status ${answer?.status}`
    return (JSON.parse(answer.body) as { hash: string | null }).hash
  }
  /** Polls until `read` answers `expected`; the time it took, in ms. */
  const timeUntil = async (read: () => Promise<unknown>, expected: unknown, timeoutMs = 30_000) => {
    const started = Date.now()
    let last: unknown
    while (Date.now() - started < timeoutMs) {
      last = await read()
      if (last === expected) return Date.now() - started
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error(`still ${String(last)} after ${timeoutMs} ms`)
  }

  beforeAll(async () => {
    applicationId = await setup.createApplication('A vault check')
    await waitForEditorReady(setup.harness, setup.owner, setup.organizationId, applicationId)
    await setup.harness.devboxes.box(applicationId)?.files.write('server/app.ts', checkRoute)
    await timeUntil(devServerHash, null)
  })

  it('restarts the dev server with each change; its /api routes see the new value', async () => {
    const timings: number[] = []
    for (const value of ['first-value-1', 'second-value-2']) {
      const started = Date.now()
      expect((await setSecret(value)).status).toBe(200)
      await timeUntil(devServerHash, hashOf(value))
      timings.push(Date.now() - started)
    }
    const deleted = await setup.harness.request(
      `/api/applications/${applicationId}/vault/CHECK_KEY`,
      {
        method: 'DELETE',
        user: setup.owner,
        headers: headers(),
      },
    )
    expect(deleted.status).toBe(200)
    await timeUntil(devServerHash, null)
    console.log(`vault set → dev server sees it: ${timings.join(' ms, ')} ms`)
  })

  it('replaces the production server on a change without failing a request', async () => {
    // Its deploy is asked for anonymously below: open to anyone (an organization's app is not).
    await setup.setVisibility(applicationId, 'public')
    expect((await setSecret('before-deploy')).status).toBe(200)
    const deploy = await setup.harness.request(`/api/applications/${applicationId}/deploy`, {
      method: 'POST',
      user: setup.owner,
      headers: headers(),
    })
    expect(deploy.status, await deploy.clone().text()).toBe(200)
    appsHost = new URL(((await deploy.json()) as { prod_url: string }).prod_url).host
    const productionHash = async () => {
      const answer = await rawRequest(setup.harness.port, appsHost, '/api/vault-check')
      if (answer.status !== 200)
        throw new Error(`production answered ${answer.status}: ${answer.body}`)
      return (JSON.parse(answer.body) as { hash: string | null }).hash
    }
    expect(await productionHash()).toBe(hashOf('before-deploy'))
    expect((await setSecret('after-deploy')).status).toBe(200)
    // Every request during the switch is answered (productionHash throws on anything but 200).
    const tookMs = await timeUntil(productionHash, hashOf('after-deploy'))
    console.log(`vault set → production server sees it: ${tookMs} ms`)
  })
})
