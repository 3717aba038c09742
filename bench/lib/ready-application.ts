import { createTestApp, waitForEditorReady } from '../../apps/server/src/testing/app-harness.ts'

/**
 * An app in process on PGlite with its dev box ready, and a request as its owner in its
 * organization: the opening of the benches of one application's calls (`environment` as the
 * server's, e.g. `CHECKS: 'on'`). Close `harness` after.
 */
export async function readyBenchApplication(environment: Record<string, string> = {}) {
  const harness = await createTestApp(environment)
  try {
    const owner = await harness.signUp()
    const organizationId = await harness.createOrganization(owner)
    const headers = { 'organization-id': organizationId }
    const as = async (path: string, init: RequestInit = {}) =>
      await harness.request(path, { ...init, user: owner, headers })
    const response = await as('/api/applications', {
      method: 'POST',
      body: JSON.stringify({ initial_prompt: 'A bench app', model: 'demo' }),
    })
    const applicationId = ((await response.json()) as { id: string }).id
    await waitForEditorReady(harness, owner, organizationId, applicationId)
    return { harness, owner, organizationId, applicationId, as }
  } catch (error) {
    await harness.close()
    throw error
  }
}
