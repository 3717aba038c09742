import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const authMocks = vi.hoisted(() => ({ getSession: vi.fn(), signOut: vi.fn() }))
vi.mock('./auth-client.ts', () => ({ authClient: authMocks }))

const { apiRequest, configureApiClient } = await import('./api-client.ts')
const { ApiError } = await import('./api-error.ts')
const { setCurrentOrganizationId } = await import('./current-organization.ts')

const fetchMock = vi.fn<typeof fetch>()
const onSessionExpired = vi.fn()
const onForbidden = vi.fn()

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
}

function sentRequest(index = 0): { url: string; init: RequestInit; headers: Headers } {
  const [url, init] = fetchMock.mock.calls[index] as [string, RequestInit]
  return { url, init, headers: new Headers(init.headers) }
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock)
  configureApiClient({ onSessionExpired, onForbidden })
  setCurrentOrganizationId('org-internal-1')
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.resetAllMocks()
  setCurrentOrganizationId(undefined)
})

describe('apiRequest', () => {
  it('sends JSON with the Organization-ID of the current organization', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { id: 'app-1' }))
    const result = await apiRequest<{ id: string }>('/api/applications', {
      method: 'POST',
      body: { name: 'Todo' },
    })
    expect(result).toEqual({ id: 'app-1' })
    const { url, init, headers } = sentRequest()
    expect(url).toBe('/api/applications')
    expect(init.body).toBe('{"name":"Todo"}')
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(headers.get('Organization-ID')).toBe('org-internal-1')
  })

  it('sends no Organization-ID when told not to, or when none is known', async () => {
    fetchMock.mockImplementation(async () => json(200, {}))
    await apiRequest('/api/organizations?is_personal=true', { organizationId: null })
    setCurrentOrganizationId(undefined)
    await apiRequest('/api/models')
    expect(sentRequest(0).headers.has('Organization-ID')).toBe(false)
    expect(sentRequest(1).headers.has('Organization-ID')).toBe(false)
  })

  it("turns { error } into an ApiError carrying the server's message and status", async () => {
    fetchMock.mockResolvedValueOnce(json(404, { error: 'Application not found' }))
    const failure = apiRequest('/api/applications/x')
    await expect(failure).rejects.toBeInstanceOf(ApiError)
    await expect(failure).rejects.toMatchObject({ message: 'Application not found', status: 404 })
  })

  it("reports 'API request failed' when the server cannot be reached", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    await expect(apiRequest('/api/models')).rejects.toMatchObject({
      message: 'API request failed',
      status: 0,
    })
  })

  it('on a 401 dispatches "unauthorized", refreshes the session and retries once', async () => {
    const unauthorized = vi.fn()
    window.addEventListener('unauthorized', unauthorized)
    fetchMock
      .mockResolvedValueOnce(json(401, { error: 'Authentication required' }))
      .mockResolvedValueOnce(json(200, [{ id: 'a' }]))
    authMocks.getSession.mockResolvedValueOnce({ data: { user: { id: 'u' } }, error: null })

    await expect(apiRequest('/api/applications')).resolves.toEqual([{ id: 'a' }])
    expect(unauthorized).toHaveBeenCalledTimes(1)
    expect(authMocks.getSession).toHaveBeenCalledTimes(1)
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(onSessionExpired).not.toHaveBeenCalled()
    window.removeEventListener('unauthorized', unauthorized)
  })

  it('signs out and reports an expired session when the refresh does not help', async () => {
    fetchMock.mockImplementation(async () => json(401, { error: 'Authentication required' }))
    authMocks.getSession.mockResolvedValueOnce({ data: null, error: null })
    authMocks.signOut.mockResolvedValueOnce({ data: null, error: null })

    await expect(apiRequest('/api/applications')).rejects.toMatchObject({
      message: 'Your session has expired. Please sign in again.',
      status: 401,
    })
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(authMocks.signOut).toHaveBeenCalledTimes(1)
    expect(onSessionExpired).toHaveBeenCalledTimes(1)
  })

  it('sends the user to /unauthorized on a 403 from an admin call only', async () => {
    fetchMock.mockImplementation(async () =>
      json(403, { error: 'You do not have permission to access this resource.' }),
    )
    await expect(apiRequest('/api/admin/pool/stats')).rejects.toMatchObject({ status: 403 })
    expect(onForbidden).toHaveBeenCalledTimes(1)
    await expect(apiRequest('/api/applications/x')).rejects.toMatchObject({
      message: 'You do not have permission to access this resource.',
    })
    expect(onForbidden).toHaveBeenCalledTimes(1)
  })
})
