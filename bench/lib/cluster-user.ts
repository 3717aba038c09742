// A user of a bench cluster (bench/lib/cluster.ts): signed up, an application with a ready box,
// the preview's cookie, all through a given port (HAProxy's or one instance's).
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { PREVIEW_COOKIE } from '../../apps/server/src/devboxes/hand-off/preview-session.ts'
import { handOffPath } from '../../apps/server/src/testing/app-harness.ts'
import { cookieFrom, rawRequest } from '../../apps/server/src/testing/raw-request.ts'
import { apiCaller } from './api-caller.ts'

export type ClusterUser = {
  token: string
  applicationId: string
  previewHost: string
  cookie: string
}

export async function signUpAndCreate(
  port: number,
  publicUrl: string,
  email: string,
): Promise<ClusterUser> {
  const call = apiCaller(port, publicUrl)
  const signedUp = await call('/api/auth/sign-up/email', {
    method: 'POST',
    body: JSON.stringify({ email, password: 'correct-horse-battery', name: 'bench' }),
  })
  if (!signedUp.ok) throw new Error(`sign-up: ${signedUp.status} ${await signedUp.text()}`)
  const token = signedUp.headers.get('set-auth-token') ?? ''
  const created = await call('/api/applications', {
    method: 'POST',
    token,
    body: JSON.stringify({ initial_prompt: 'benchmark app', model: 'demo' }),
  })
  const { id } = (await created.json()) as { id: string }
  const deadline = Date.now() + 300_000
  for (;;) {
    const ready = await call(`/api/applications/${id}/editor-ready`, { token })
    if (ready.ok) {
      const body = (await ready.json()) as { ready: boolean; error?: string }
      if (body.error) throw new Error(body.error)
      if (body.ready) break
    } else await ready.body?.cancel()
    if (Date.now() > deadline) throw new Error(`the box of ${email} was never ready`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const details = (await (await call(`/api/applications/${id}`, { token })).json()) as {
    preview_url: string
  }
  const issued = await call('/api/org/devbox-token', {
    method: 'POST',
    token,
    body: JSON.stringify({ devbox_url: details.preview_url }),
  })
  const { token: handOff } = (await issued.json()) as { token: string }
  const previewHost = new URL(details.preview_url).host
  const exchanged = await rawRequest(port, previewHost, handOffPath(handOff))
  return {
    token,
    applicationId: id,
    previewHost,
    cookie: cookieFrom(exchanged, PREVIEW_COOKIE) ?? '',
  }
}

/** The workspace of the one box under SHARED_DIR: the folder with src/App.tsx and package.json (boxes are named by their own ids). */
export function findWorkspace(sharedDir: string): string {
  const visit = (folder: string, depth: number): string | undefined => {
    if (depth > 5) return undefined
    let entries: string[]
    try {
      entries = readdirSync(folder)
    } catch {
      return undefined
    }
    if (
      entries.includes('src') &&
      entries.includes('package.json') &&
      !folder.includes('deploys')
    ) {
      return folder
    }
    for (const entry of entries) {
      if (entry === 'node_modules' || entry === '.git') continue
      const child = path.join(folder, entry)
      if (statSync(child, { throwIfNoEntry: false })?.isDirectory()) {
        const found = visit(child, depth + 1)
        if (found) return found
      }
    }
    return undefined
  }
  const found = visit(sharedDir, 0)
  if (!found) throw new Error(`no workspace under ${sharedDir}`)
  return found
}
