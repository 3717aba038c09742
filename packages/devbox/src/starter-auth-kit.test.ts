// Long file: one kit, tried the ways an app meets it (the dev server, a production build, mail on
// and off, hostile origins); its servers and copies of the starter are shared by the cases.
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreePort } from './drivers/local/processes/free-port.ts'
import { waitFor } from './testing/devbox-support.ts'
import { type RelayedMail, startFakeMailRelay } from './testing/fake-mail-relay.ts'
import { copyFullStackStarter } from './testing/starter-copy.ts'

// The full-stack starter's auth kit (templates/fullstack/README.md "Sign-in for a public app"):
// accounts, e-mailed links through Sprout's mail relay, roles, and the addresses it trusts.

const previewOrigin = 'http://notes.preview.localhost:3000'
const deployedOrigin = 'http://notes.apps.localhost:3000'
const appToken = 'app-token-of-notes'
const execFileAsync = promisify(execFile)
const copies: string[] = []
const servers: ChildProcess[] = []

/** The wiring the README gives, added to the starter's server/app.ts, plus an admins' route. */
const wiring = {
  imports: [
    "import { appUser } from './auth-kit/app-user.ts'",
    "import { requireAppRole } from './auth-kit/require-app-role.ts'",
    "import { mountAuthKit } from './auth-kit/routes.ts'",
  ].join('\n'),
  routes: [
    'mountAuthKit(app)',
    "app.get('/reports', requireAppRole('admin'), async (c) =>",
    '  c.json({ viewer: (await appUser(c))?.email }),',
    ')',
  ].join('\n'),
}

/** The starter in a temporary folder, with the README's wiring when `withKit`. */
async function copyStarter(withKit: boolean) {
  const to = await copyFullStackStarter('sprout-auth-kit-')
  copies.push(to)
  if (withKit) {
    const appFile = path.join(to, 'server/app.ts')
    const source = await readFile(appFile, 'utf8')
    const anchor = "export const app = new Hono().basePath('/api')\n"
    expect(source).toContain(anchor)
    await writeFile(
      appFile,
      `${wiring.imports}\n${source.replace(anchor, `${anchor}${wiring.routes}\n`)}`,
    )
  }
  return to
}

/** A server of the copy (`vite` or `node dist/server/index.js`) on a loopback port. */
async function startServer(root: string, args: string[], env: Record<string, string>) {
  const port = await findFreePort()
  const server = spawn(process.execPath, args, {
    cwd: root,
    // Not the test's own environment: Vitest's NODE_ENV=test would hide the dev server's default.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: root,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${path.join(root, '.data/app.db')}`,
      SPROUT_APP_ORIGINS: `${previewOrigin},${deployedOrigin}`,
      SPROUT_APP_TOKEN: appToken,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  servers.push(server)
  const output = { text: '' }
  server.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output.text += chunk))
  server.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output.text += chunk))
  const base = `http://127.0.0.1:${port}`
  await waitFor(async () => {
    if (server.exitCode !== null) throw new Error(`The server exited:\n${output.text}`)
    return (await fetch(`${base}/api/health`).catch(() => undefined))?.ok === true
  }, 30_000)
  return { base, output, databaseFile: path.join(root, '.data/app.db') }
}

/**
 * A browser showing a page of `page` (the app's preview unless said), calling the app at
 * `address` through Sprout's proxy, which names the host the browser used in x-forwarded-host.
 * Keeps its cookies.
 */
class Visitor {
  cookies = new Map<string, string>()
  lastSetCookies: string[] = []
  readonly base: string
  readonly page: string
  readonly address: string

  constructor(base: string, page = previewOrigin, address = previewOrigin) {
    this.base = base
    this.page = page
    this.address = address
  }

  async request(method: string, target: string, body?: unknown) {
    const url = new URL(target, this.address)
    const headers: Record<string, string> = {
      'x-forwarded-host': url.host,
      'x-forwarded-proto': 'http',
    }
    if (method !== 'GET') headers.origin = this.page
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    }
    const response = await fetch(`${this.base}${url.pathname}${url.search}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    })
    this.lastSetCookies = response.headers.getSetCookie()
    for (const line of this.lastSetCookies) {
      const [pair = ''] = line.split(';')
      const [name = '', ...rest] = pair.split('=')
      const value = rest.join('=')
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await response.text()
    let json: Record<string, unknown> = {}
    try {
      json = JSON.parse(text)
    } catch {}
    return { status: response.status, json, location: response.headers.get('location') }
  }

  get = (target: string) => this.request('GET', target)
  post = (target: string, body: unknown = {}) => this.request('POST', target, body)
}

let relay: Awaited<ReturnType<typeof startFakeMailRelay>>

beforeAll(async () => {
  relay = await startFakeMailRelay(appToken)
})

afterAll(async () => {
  await Promise.all(
    servers.map(async (server) => {
      if (server.exitCode !== null || server.signalCode !== null) return
      const exited = once(server, 'exit')
      server.kill()
      await exited
    }),
  )
  await relay?.close()
  await Promise.all(copies.map((copy) => rm(copy, { recursive: true, force: true })))
})

const linkIn = (text: string) => text.match(/https?:\/\/\S+/)?.[0] ?? ''

/** The link of the latest mail to `to` about `subject`, once the relay has it. */
async function mailedLink(to: string, subject: RegExp): Promise<string> {
  const matches = (mail: RelayedMail) => mail.to === to && subject.test(mail.subject)
  await waitFor(() => relay.mails.some(matches))
  const [mail] = relay.mails.splice(relay.mails.findLastIndex(matches), 1)
  return linkIn(mail?.text ?? '')
}

describe('the auth kit of the fullstack starter', { timeout: 90_000 }, () => {
  let base = ''
  let output = { text: '' }

  beforeAll(async () => {
    const root = await copyStarter(true)
    const server = await startServer(root, ['node_modules/vite/bin/vite.js'], {
      SPROUT_INTERNAL_URL: relay.url,
    })
    base = server.base
    output = server.output
  }, 90_000)

  async function signUpAndConfirm(email: string, password: string, extra: object = {}) {
    const visitor = new Visitor(base)
    const signUp = await visitor.post('/api/auth/sign-up/email', {
      email,
      password,
      name: email.split('@')[0],
      ...extra,
    })
    expect(signUp.status, JSON.stringify(signUp.json)).toBe(200)
    const link = await mailedLink(email, /Confirm your email/)
    expect(link.startsWith(`${previewOrigin}/api/auth/verify-email?token=`)).toBe(true)
    const confirmed = await visitor.get(link)
    expect(confirmed.status).toBe(302)
    return { visitor, signUp }
  }

  it('makes the first user the owner, once the e-mailed link confirms the address', async () => {
    const visitor = new Visitor(base)
    expect((await visitor.get('/api/auth-kit/me')).json).toEqual({ user: null })
    const signUp = await visitor.post('/api/auth/sign-up/email', {
      email: 'owner@example.com',
      password: 'owner-password-1',
      name: 'Olive',
    })
    expect(signUp.status).toBe(200)
    const early = await visitor.post('/api/auth/sign-in/email', {
      email: 'owner@example.com',
      password: 'owner-password-1',
    })
    expect(early).toMatchObject({ status: 403, json: { code: 'EMAIL_NOT_VERIFIED' } })

    const link = await mailedLink('owner@example.com', /Confirm your email/)
    const confirmed = await visitor.get(link)
    expect(confirmed).toMatchObject({ status: 302, location: '/' })
    // The preview is a frame of Sprout's builder, another site: only such cookies reach it.
    const sessionCookie = visitor.lastSetCookies.find((line) => line.includes('session_token'))
    expect(sessionCookie).toMatch(/SameSite=None/i)
    expect(sessionCookie).toMatch(/; Secure/i)
    expect(sessionCookie).toMatch(/; Partitioned/i)
    expect((await visitor.get('/api/auth-kit/me')).json).toEqual({
      user: { id: expect.any(String), name: 'Olive', email: 'owner@example.com', role: 'owner' },
    })
    expect(relay.refusedTokens).toBe(0)
  })

  it('makes later users members, whatever role their sign-up asks for', async () => {
    const { signUp } = await signUpAndConfirm('member@example.com', 'member-password-1', {
      role: 'owner',
    })
    expect(signUp.json.user).toMatchObject({ role: 'member' })
    const visitor = new Visitor(base)
    const signIn = await visitor.post('/api/auth/sign-in/email', {
      email: 'member@example.com',
      password: 'member-password-1',
    })
    expect(signIn.status).toBe(200)
    expect((await visitor.get('/api/auth-kit/me')).json.user).toMatchObject({ role: 'member' })
    const wrong = await visitor.post('/api/auth/sign-in/email', {
      email: 'member@example.com',
      password: 'not-the-password',
    })
    expect(wrong).toMatchObject({ status: 401, json: { code: 'INVALID_EMAIL_OR_PASSWORD' } })
    // better-auth's own update-user cannot set it either.
    expect((await visitor.post('/api/auth/update-user', { role: 'owner' })).status).toBe(400)

    // The acceptance tests and the agent's browser open the dev server itself, inside its box.
    const inBox = new Visitor(base, base, base)
    const direct = { email: 'member@example.com', password: 'member-password-1' }
    expect((await inBox.post('/api/auth/sign-in/email', direct)).status).toBe(200)
    expect((await inBox.get('/api/auth-kit/me')).json.user).toMatchObject({ role: 'member' })
  })

  it('refuses an admins’ route to members until the owner makes them admins', async () => {
    const member = new Visitor(base)
    await member.post('/api/auth/sign-in/email', {
      email: 'member@example.com',
      password: 'member-password-1',
    })
    expect(await member.get('/api/reports')).toMatchObject({
      status: 403,
      json: { error: 'Only admins can do this.' },
    })
    expect(await new Visitor(base).get('/api/reports')).toMatchObject({
      status: 401,
      json: { error: 'Sign in first.' },
    })
    const owner = new Visitor(base, deployedOrigin, deployedOrigin)
    expect(
      (
        await owner.post('/api/auth/sign-in/email', {
          email: 'owner@example.com',
          password: 'owner-password-1',
        })
      ).status,
    ).toBe(200)
    const listed = await owner.get('/api/auth-kit/users')
    const users = listed.json.users as Array<{ id: string; email: string; role: string }>
    const target = users.find((user) => user.email === 'member@example.com')
    expect(target?.role).toBe('member')
    const rolePath = `/api/auth-kit/users/${target?.id}/role`
    expect((await member.post(rolePath, { role: 'admin' })).status).toBe(403)

    // Another site's page, or another app of the same Sprout, with the owner's cookies.
    for (const forger of ['http://evil.example', 'http://other.apps.localhost:3000']) {
      const forged = new Visitor(base, forger, deployedOrigin)
      forged.cookies = owner.cookies
      expect(await forged.post(rolePath, { role: 'admin' })).toMatchObject({ status: 403 })
      expect((await forged.post('/api/auth/sign-out')).status).toBe(403)
    }
    const forgedSignIn = new Visitor(base, 'http://evil.example', deployedOrigin)
    expect(
      await forgedSignIn.post('/api/auth/sign-in/email', {
        email: 'owner@example.com',
        password: 'owner-password-1',
      }),
    ).toMatchObject({ status: 403, json: { code: 'INVALID_ORIGIN' } })
    expect((await member.get('/api/reports')).status).toBe(403)

    expect(await owner.post(rolePath, { role: 'admin' })).toMatchObject({ status: 200 })
    expect(await member.get('/api/reports')).toMatchObject({
      status: 200,
      json: { viewer: 'member@example.com' },
    })
    expect((await owner.post(rolePath, { role: 'owner' })).status).toBe(400)
  })

  it('resets a password by an e-mailed link that works once', async () => {
    const { visitor: signedIn } = await signUpAndConfirm('reset@example.com', 'old-password-1')
    const visitor = new Visitor(base)
    const foreignRedirect = await visitor.post('/api/auth/request-password-reset', {
      email: 'reset@example.com',
      redirectTo: 'http://evil.example/steal',
    })
    expect(foreignRedirect.status).toBe(403)
    const asked = await visitor.post('/api/auth/request-password-reset', {
      email: 'reset@example.com',
      redirectTo: '/reset-password',
    })
    expect(asked.status).toBe(200)
    const link = await mailedLink('reset@example.com', /Reset your password/)
    expect(link.startsWith(`${previewOrigin}/api/auth/reset-password/`)).toBe(true)
    const opened = await visitor.get(link)
    expect(opened.status).toBe(302)
    const page = new URL(opened.location ?? '', previewOrigin)
    expect(page.pathname).toBe('/reset-password')
    const token = page.searchParams.get('token')
    expect(token).toBeTruthy()

    const reset = { token, newPassword: 'new-password-2' }
    expect((await visitor.post('/api/auth/reset-password', reset)).status).toBe(200)
    expect((await visitor.post('/api/auth/reset-password', reset)).status).toBe(400)
    expect((await signedIn.get('/api/auth-kit/me')).json).toEqual({ user: null })
    const withOld = { email: 'reset@example.com', password: 'old-password-1' }
    expect((await visitor.post('/api/auth/sign-in/email', withOld)).status).toBe(401)
    const withNew = { email: 'reset@example.com', password: 'new-password-2' }
    expect((await visitor.post('/api/auth/sign-in/email', withNew)).status).toBe(200)
  })

  it('prints the link in the dev server’s log while Sprout has no mail', async () => {
    relay.mailOn = false
    try {
      const visitor = new Visitor(base)
      const signUp = await visitor.post('/api/auth/sign-up/email', {
        email: 'offline@example.com',
        password: 'offline-password-1',
        name: 'Otto',
      })
      expect(signUp.status).toBe(200)
      const printed = () =>
        output.text
          .split('[auth-kit] mail is off')
          .find((part) => part.includes('offline@example.com'))
      await waitFor(() => printed() !== undefined)
      const link = linkIn(printed()?.replaceAll('  | ', '') ?? '')
      expect(link.startsWith(`${previewOrigin}/api/auth/verify-email?token=`)).toBe(true)
      expect((await visitor.get(link)).status).toBe(302)
      expect((await visitor.get('/api/auth-kit/me')).json.user).toMatchObject({ role: 'member' })
    } finally {
      relay.mailOn = true
    }
  })
})

describe('the auth kit in production builds', { timeout: 90_000 }, () => {
  const buildServer = (root: string) =>
    execFileAsync(
      process.execPath,
      ['node_modules/vite/bin/vite.js', 'build', '--ssr', 'server/main.ts'],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: root },
      },
    )

  it('costs an app that does not use it nothing: no code in the build, no tables', async () => {
    const root = await copyStarter(false)
    await buildServer(root)
    const bundle = await readFile(path.join(root, 'dist/server/index.js'), 'utf8')
    expect(bundle).not.toContain('better-auth')
    expect(bundle).not.toContain('auth_user')
    const server = await startServer(root, ['dist/server/index.js'], { NODE_ENV: 'production' })
    const database = new DatabaseSync(server.databaseFile, { readOnly: true })
    const tables = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'auth%'")
      .all()
    database.close()
    expect(tables).toEqual([])
  })

  it('answers a sign-up that mail is off, and never logs the link', async () => {
    const root = await copyStarter(true)
    await buildServer(root)
    const server = await startServer(root, ['dist/server/index.js'], {
      NODE_ENV: 'production',
      SPROUT_INTERNAL_URL: relay.url,
    })
    relay.mailOn = false
    try {
      const visitor = new Visitor(server.base)
      const credentials = { email: 'shopper@example.com', password: 'shopper-password-1' }
      const signUp = await visitor.post('/api/auth/sign-up/email', { ...credentials, name: 'S' })
      expect(signUp).toMatchObject({ status: 503, json: { code: 'MAIL_NOT_SENT' } })
      expect(String(signUp.json.message)).toMatch(/cannot send e-mail/)
      expect(server.output.text).not.toContain('verify-email')

      const database = new DatabaseSync(server.databaseFile)
      database
        .prepare('UPDATE auth_user SET emailVerified = 1 WHERE email = ?')
        .run(credentials.email)
      database.close()
      expect((await visitor.post('/api/auth/sign-in/email', credentials)).status).toBe(200)
      // A deployed app is reached at its own address only.
      const direct = new Visitor(server.base, server.base, server.base)
      expect((await direct.post('/api/auth/sign-in/email', credentials)).status).toBe(400)
      // The app's own page, not a frame: Lax; not Secure on an http address.
      const sessionCookie = visitor.lastSetCookies.find((line) => line.includes('session_token'))
      expect(sessionCookie).toMatch(/SameSite=Lax/i)
      expect(sessionCookie).not.toMatch(/; Secure|Partitioned/i)
    } finally {
      relay.mailOn = true
    }
    const later = new Visitor(server.base)
    const signUp = await later.post('/api/auth/sign-up/email', {
      email: 'later@example.com',
      password: 'later-password-1',
      name: 'L',
    })
    expect(signUp.status).toBe(200)
    expect(await mailedLink('later@example.com', /Confirm your email/)).toMatch(
      /^http:\/\/notes\.preview\.localhost:3000\/api\/auth\/verify-email\?token=/,
    )
  })
})
