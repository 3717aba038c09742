// The opening of most server tests: one test app per describe block, a signed-up user and an
// organization of theirs, closed after the block's tests.
import { afterAll, beforeAll } from 'vitest'
import { createTestApp, type TestApp, type TestUser, waitForEditorReady } from './app-harness.ts'

export type OrganizationHarness = {
  readonly harness: TestApp
  /** The first user signed up: the organization's owner and the platform admin (by the setup link). */
  readonly owner: TestUser
  readonly organizationId: string
  /** The header that picks the organization of a request. */
  headers: () => { 'organization-id': string }
  /** A request as the owner, in the organization. */
  request: (path: string, init?: RequestInit) => Promise<Response>
  /** Creates an application of the demo model as the owner and returns its id. */
  createApplication: (prompt: string) => Promise<string>
  /** Creates an application and waits until its editor (devbox and dev server) is ready. */
  createReadyApplication: (prompt: string) => Promise<string>
  /** A ready application with its preview URL and that URL's host. */
  createPreviewedApplication: (prompt: string) => Promise<PreviewedApplication>
  /**
   * Sets who may open the app's deploy, as the owner (an organization's apps are for its members
   * by default; tests of a deploy's behaviour open it to anyone).
   */
  setVisibility: (
    applicationId: string,
    visibility: 'public' | 'organization' | 'people',
    allowedEmails?: string[],
  ) => Promise<void>
}

export type PreviewedApplication = { id: string; previewUrl: string; host: string }

export type OrganizationHarnessOptions = {
  /** A function when the values are made by an earlier beforeAll. */
  environment?: Record<string, string> | (() => Record<string, string>)
  ownerEmail?: string
  organizationName?: string
  /** Also listen on a port, for raw requests by host name and WebSockets. */
  listen?: boolean
  timeoutMs?: number
}

/** Registers the block's beforeAll and afterAll; the fields can be read once beforeAll has run. */
export function useOrganizationHarness(
  options: OrganizationHarnessOptions = {},
): OrganizationHarness {
  let harness: TestApp | undefined
  let ready: { owner: TestUser; organizationId: string } | undefined
  beforeAll(async () => {
    const { environment } = options
    harness = await createTestApp(typeof environment === 'function' ? environment() : environment)
    if (options.listen) await harness.listen()
    const owner = await harness.signUpAdmin(options.ownerEmail)
    ready = {
      owner,
      organizationId: await harness.createOrganization(owner, options.organizationName),
    }
  }, options.timeoutMs)
  afterAll(() => harness?.close())
  const current = () => {
    if (!harness || !ready) throw new Error('The harness is ready once beforeAll has run')
    return { harness, ...ready }
  }
  const request = async (path: string, init: RequestInit = {}) => {
    const { harness, owner, organizationId } = current()
    return harness.request(path, {
      ...init,
      user: owner,
      headers: { 'organization-id': organizationId },
    })
  }
  const createApplication = async (prompt: string) => {
    const created = await request('/api/applications', {
      method: 'POST',
      body: JSON.stringify({ initial_prompt: prompt, model: 'demo' }),
    })
    if (created.status !== 201) throw new Error(`create failed: ${await created.text()}`)
    return ((await created.json()) as { id: string }).id
  }
  const createReadyApplication = async (prompt: string) => {
    const id = await createApplication(prompt)
    const { harness, owner, organizationId } = current()
    await waitForEditorReady(harness, owner, organizationId, id)
    return id
  }
  return {
    get harness() {
      return current().harness
    },
    get owner() {
      return current().owner
    },
    get organizationId() {
      return current().organizationId
    },
    headers: () => ({ 'organization-id': current().organizationId }),
    request,
    createApplication,
    createReadyApplication,
    setVisibility: async (applicationId, visibility, allowedEmails) => {
      const answer = await request(`/api/applications/${applicationId}`, {
        method: 'PATCH',
        body: JSON.stringify({ visibility, allowed_emails: allowedEmails }),
      })
      if (answer.status !== 200) throw new Error(`visibility not set: ${await answer.text()}`)
    },
    createPreviewedApplication: async (prompt) => {
      const id = await createReadyApplication(prompt)
      const details = await request(`/api/applications/${id}`)
      const { preview_url: previewUrl } = (await details.json()) as { preview_url: string }
      return { id, previewUrl, host: new URL(previewUrl).host }
    },
  }
}
