import { randomUUID } from 'node:crypto'
import type { Model } from '@sprout/protocol/models.ts'
import { OptionsError } from './eval-options.ts'

/**
 * The product's public API as the web app calls it (docs/product/api.md): from the server's
 * origin, JSON bodies, the signed-in user's bearer token.
 */
export type ProductApi = {
  origin: string
  port: number
  token: string
  call: <Body>(pathname: string, init?: { method?: string; body?: unknown }) => Promise<Body>
}

export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

const editorReadyTimeoutMs = 180_000

function request(origin: string, pathname: string, init: RequestInit) {
  const headers = new Headers(init.headers)
  // better-auth refuses an Origin it does not trust; the server's own is trusted.
  headers.set('origin', origin)
  if (init.body) headers.set('content-type', 'application/json')
  return fetch(`http://127.0.0.1:${new URL(origin).port}${pathname}`, { ...init, headers })
}

/** Signs a new user up over HTTP (listed in ADMIN_EMAILS, so the installation's admin). */
export async function signUpEvalUser(origin: string, email: string): Promise<ProductApi> {
  const response = await request(origin, '/api/auth/sign-up/email', {
    method: 'POST',
    body: JSON.stringify({ email, name: 'Agent eval', password: randomUUID() }),
  })
  if (!response.ok) {
    throw new ApiError(
      response.status,
      `Sign-up failed: ${response.status} ${await response.text()}`,
    )
  }
  const token = response.headers.get('set-auth-token') ?? ''
  if (!token) throw new Error('Sign-up answered no bearer token (set-auth-token)')
  const call = async <Body>(pathname: string, init: { method?: string; body?: unknown } = {}) => {
    const answer = await request(origin, pathname, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${token}` },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
    const text = await answer.text()
    if (!answer.ok) {
      throw new ApiError(answer.status, `${pathname}: ${answer.status} ${text.slice(0, 500)}`)
    }
    return (text ? JSON.parse(text) : undefined) as Body
  }
  return { origin, port: Number(new URL(origin).port), token, call }
}

/** The model, when the server can run it; else an error listing those it can. */
export async function findModel(api: ProductApi, modelId: string): Promise<Model> {
  const models = await api.call<Model[]>('/api/models')
  const model = models.find((candidate) => candidate.model === modelId)
  if (model?.available) return model
  const available = models.filter((candidate) => candidate.available).map((each) => each.model)
  const why = model ? `: ${model.unavailableReason ?? 'not available'}` : ' is not a known model'
  throw new OptionsError(`--model ${modelId}${why}. Available here: ${available.join(', ')}`)
}

export type CreatedApplication = { id: string; previewUrl: string }

/**
 * As the create dialog does (docs/product/applications.md "Create application"): create the app,
 * wait for its editor; the caller then sends the first message.
 */
export async function createReadyApplication(
  api: ProductApi,
  input: { name: string; prompt: string; model: string },
  signal: AbortSignal,
): Promise<CreatedApplication> {
  const created = await api.call<{ id: string }>('/api/applications', {
    body: { name: input.name, initial_prompt: input.prompt, model: input.model },
  })
  const deadline = Date.now() + editorReadyTimeoutMs
  for (;;) {
    signal.throwIfAborted()
    const state = await api.call<{ ready: boolean; error?: string }>(
      `/api/applications/${created.id}/editor-ready`,
    )
    if (state.error) throw new Error(`The app's dev box failed: ${state.error}`)
    if (state.ready) break
    if (Date.now() > deadline) {
      throw new Error(`The app's editor was not ready in ${editorReadyTimeoutMs / 1000} s`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const details = await api.call<{ preview_url: string }>(`/api/applications/${created.id}`)
  return { id: created.id, previewUrl: details.preview_url }
}

/** POST …/message: answers the new conversation and its run. */
export async function sendFirstMessage(
  api: ProductApi,
  applicationId: string,
  input: { message: string; model: string },
) {
  const sent = await api.call<{ conversation_id: string; run_id: string }>(
    `/api/demo/applications/${applicationId}/message`,
    { body: { message: input.message, model: input.model } },
  )
  return { conversationId: sent.conversation_id, runId: sent.run_id }
}

/**
 * Whether a failed check is followed by a repair turn in the user's (personal) organization
 * (docs/product/checks.md "Setting"); true when the server cannot say, so it is waited for.
 */
export async function repairsExpected(api: ProductApi): Promise<boolean> {
  try {
    const organization = await api.call<{ id: string }>('/api/organizations?is_personal=true')
    const settings = await api.call<{ autoRepair: boolean; installationAllows: boolean }>(
      `/api/organizations/${organization.id}/check-settings`,
    )
    return settings.autoRepair && settings.installationAllows
  } catch {
    return true
  }
}
