// The check of an app's dev box (docs/product/checks.md "The check"): each part against a real
// box, its failures with their causes, a part that times out, an abort, and the routes.
// Long file: one real box serves every part's cases, which share its set-up.
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { CheckPart, CheckReport } from '@sprout/protocol/api/checks.ts'
import { describe, expect, it } from 'vitest'
import { call, setUpChatApplication } from '../testing/chat-client.ts'
import { browserErrorEvent, sdkEnvelope } from '../testing/sentry-envelopes.ts'
import { runCheck } from './service.ts'

const starterApp = 'src/App.tsx'

describe('the check of an app', { timeout: 240_000 }, () => {
  const chat = setUpChatApplication()
  const box = () => {
    const found = chat.harness.devboxes.box(chat.applicationId)
    if (!found) throw new Error('no dev box')
    return found
  }
  const check = (options: Partial<Parameters<typeof runCheck>[1]> = {}) =>
    runCheck(
      { db: chat.harness.created.db, box: box(), applicationId: chat.applicationId },
      { trigger: 'manual', runId: null, ...options },
    )
  const part = (report: CheckReport, name: CheckPart['name']) =>
    report.parts.find((candidate) => candidate.name === name) as CheckPart
  let original = ''

  it('passes the starter app, streaming each part as it goes; the second type check is quicker', async () => {
    original = await box().files.read(starterApp)
    const progress: CheckReport[] = []
    const report = await check({ onProgress: (step) => progress.push(step) })
    expect(report.state, JSON.stringify(report)).toBe('passed')
    expect(report.parts.map((each) => each.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
      'passed',
    ])
    expect(progress[0]?.parts.every((each) => each.status === 'pending')).toBe(true)
    expect(progress.some((step) => part(step, 'build').status === 'running')).toBe(true)
    expect(progress.at(-1)).toEqual(report)
    const again = await check()
    console.log(
      `type check: first ${part(report, 'types').durationMs} ms, incremental ${part(again, 'types').durationMs} ms`,
    )
    // The check's own files stay out of the app's history and the deploy's dist/.
    const status = await box().exec('git status --porcelain', { timeoutSeconds: 10 })
    expect(status.output.trim()).toBe('')
    // The acceptance part has its own tests (acceptance.test.ts): skipped from here on.
    await box().exec('rm -rf tests/acceptance', { timeoutSeconds: 10 })
  })

  it('names a type error by file, line and column, with its first line', async () => {
    await box().files.write(starterApp, `${original}\nexport const wrong: string = 42\n`)
    const report = await check()
    expect(report.state).toBe('failed')
    const [found] = part(report, 'types').problems
    expect(found).toMatchObject({ file: starterApp, column: 14 })
    expect(found?.line).toBeGreaterThan(1)
    expect(found?.message).toBe("Type 'number' is not assignable to type 'string'.")
  })

  it('names the import that breaks the build', async () => {
    await box().files.write(starterApp, `${original}\nimport './missing-module.ts'\n`)
    const report = await check()
    const build = part(report, 'build')
    expect(build.status).toBe('failed')
    expect(build.problems[0]?.file).toBe(starterApp)
    expect(build.problems[0]?.message).toMatch(/missing-module/)
    await box().files.write(starterApp, original)
  })

  it('says when the server does not answer its health route', async () => {
    const server = await box().files.read('server/app.ts')
    await box().files.write(
      'server/app.ts',
      server.replace(
        "app.get('/health', (c) => c.json({ ok: true }))",
        "app.get('/health', (c) => c.json({ ok: false }, 500))",
      ),
    )
    try {
      const report = await check({ partTimeouts: { health: 4 } })
      const health = part(report, 'health')
      expect(health.status).toBe('failed')
      expect(health.problems[0]?.message).toBe('GET /api/health answered 500')
      // A health route that never answers: the part ends at its limit, saying so.
      await box().files.write(
        'server/app.ts',
        server.replace(
          "app.get('/health', (c) => c.json({ ok: true }))",
          "app.get('/health', () => new Promise<Response>(() => {}))",
        ),
      )
      const hanging = part(await check({ partTimeouts: { health: 4 } }), 'health')
      expect(hanging).toMatchObject({ status: 'timed-out', note: 'Timed out after 4 s' })
      expect(hanging.problems[0]?.message).toMatch(/^GET \/api\/health: /)
    } finally {
      await box().files.write('server/app.ts', server)
    }
  })

  it("never shows a vault secret the app's server prints in its failing health", async () => {
    const secret = 'sk-check-secret-7f3a9c21'
    const set = await call(chat.actor, `/api/applications/${chat.applicationId}/vault`, {
      key: 'CHECK_SECRET',
      value: secret,
    })
    expect(set.status).toBe(200)
    const server = await box().files.read('server/app.ts')
    await box().files.write(
      'server/app.ts',
      server.replace(
        "app.get('/health', (c) => c.json({ ok: true }))",
        "app.get('/health', (c) => {\n  console.log('the key is', process.env.CHECK_SECRET)\n  return c.json({ key: process.env.CHECK_SECRET }, 500)\n})",
      ),
    )
    try {
      const checked = await call<CheckReport>(
        chat.actor,
        `/api/applications/${chat.applicationId}/checks`,
        {},
      )
      const health = part(checked.body, 'health')
      expect(health.status).toBe('failed')
      expect(JSON.stringify(checked.body)).not.toContain(secret)
      const latest = await call(chat.actor, `/api/applications/${chat.applicationId}/checks/latest`)
      expect(JSON.stringify(latest.body)).not.toContain(secret)
    } finally {
      await box().files.write('server/app.ts', server)
    }
  })

  it('lists an error group new since the run started, at its frame in the app', async () => {
    const since = new Date()
    const details = await call<{ dsn: string }>(
      chat.actor,
      `/api/applications/${chat.applicationId}`,
    )
    const dsn = new URL(details.body.dsn)
    const projectId = dsn.pathname.slice(1)
    const preview = 'http://app.preview.localhost:3000'
    const frames = [
      { function: 'sentryWrapped', file: `${preview}/__sprout/reporter.js` },
      { function: 'runWithFiberInDEV', file: `${preview}/node_modules/.vite/deps/react-dom.js` },
      { function: 'performReactRefresh', file: `${preview}/@react-refresh` },
      { function: 'onClick', file: `${preview}/src/App.tsx?t=1700000000` },
      { function: 'loadUser', file: `${preview}/src/user.ts` },
    ]
    const event = browserErrorEvent('Cannot read properties of undefined (reading "name")', {
      frames,
    })
    const headers = {
      'content-type': 'application/x-sentry-envelope',
      'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${dsn.username}, sentry_client=sentry.javascript.browser/11.12.0`,
    }
    const newGroupId = async () => {
      const listed = await call<{ id: string }[] | { groups: { id: string }[] }>(
        chat.actor,
        `/api/applications/${chat.applicationId}/error-groups`,
      )
      const groups = Array.isArray(listed.body) ? listed.body : listed.body.groups
      return groups[0]?.id
    }
    const sent = await chat.harness.request(`/api/${projectId}/envelope/`, {
      method: 'POST',
      body: sdkEnvelope(details.body.dsn, event),
      headers,
    })
    expect(sent.status).toBe(200)
    let report = await check({ errorsSince: since })
    for (let attempt = 0; attempt < 40 && part(report, 'errors').status === 'passed'; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      report = await check({ errorsSince: since })
    }
    const errors = part(report, 'errors')
    expect(errors.status).toBe('failed')
    expect(errors.problems[0]).toMatchObject({ file: 'src/user.ts', line: 14, column: 5 })
    expect(errors.problems[0]?.message).toContain('TypeError: Cannot read properties')
    // The repair turn reads the app's own frames only, at their workspace paths.
    // (src/App.tsx is the app's: its frame is mapped with the dev server's map.)
    const [, ...stack] = errors.problems[0]?.text.split('\n') ?? []
    expect(stack).toHaveLength(2)
    expect(stack[0]).toBe('at loadUser (src/user.ts:14:5)')
    expect(stack[1]).toMatch(/^at \S+ \(src\/App\.tsx:\d+:\d+\)$/)
    // Since a later start, the same group is not new…
    const later = new Date()
    expect(part(await check({ errorsSince: later }), 'errors').status).toBe('passed')
    // …until it comes back after being resolved: it regressed.
    const groupId = (await newGroupId()) ?? ''
    const resolved = await call(
      chat.actor,
      `/api/applications/${chat.applicationId}/error-groups/${groupId}`,
      { status: 'resolved' },
      'PATCH',
    )
    expect(resolved.status).toBe(200)
    const again = await chat.harness.request(`/api/${projectId}/envelope/`, {
      method: 'POST',
      body: sdkEnvelope(
        details.body.dsn,
        browserErrorEvent('Cannot read properties of undefined (reading "name")', { frames }),
      ),
      headers,
    })
    expect(again.status).toBe(200)
    let regressed = await check({ errorsSince: later })
    for (
      let attempt = 0;
      attempt < 40 && part(regressed, 'errors').status === 'passed';
      attempt++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      regressed = await check({ errorsSince: later })
    }
    expect(part(regressed, 'errors').problems[0]?.file).toBe('src/user.ts')
  })

  it('kills a part that runs out of time, whatever it forked, and says so', async () => {
    // A toolchain whose type check forks a process that would outlive it, then hangs.
    const made = await box().exec(
      'mkdir -p .cache && printf "#!/bin/sh\\n(sleep 300 &)\\nexec sleep 300\\n" > .cache/hanging-tsc && chmod +x .cache/hanging-tsc',
      { timeoutSeconds: 10 },
    )
    expect(made.exitCode).toBe(0)
    const report = await runCheck(
      {
        db: chat.harness.created.db,
        box: withHangingTypeCheck(box()),
        applicationId: chat.applicationId,
      },
      { trigger: 'manual', runId: null, partTimeouts: { types: 2 } },
    )
    expect(part(report, 'types')).toMatchObject({
      status: 'timed-out',
      note: 'Timed out after 2 s',
    })
    expect(report.state).toBe('failed')
    // The other parts still ran within the budget.
    expect(part(report, 'build').status).toBe('passed')
    // (The pattern does not match the pgrep command line itself.)
    const left = await box().exec('pgrep -f "sleep [3]00" || true', { timeoutSeconds: 10 })
    expect(left.output.trim()).toBe('')
  })

  it('skips the health of an app without a server', async () => {
    const report = await runCheck(
      {
        db: chat.harness.created.db,
        box: { ...box(), packType: 'vite-react' },
        applicationId: chat.applicationId,
      },
      { trigger: 'manual', runId: null },
    )
    expect(part(report, 'health')).toMatchObject({
      status: 'skipped',
      note: 'No server in this app',
    })
    expect(report.state).toBe('passed')
  })

  it('ends as stopped when aborted, the rest skipped', async () => {
    const controller = new AbortController()
    const report = await check({
      signal: controller.signal,
      onProgress: (step) => {
        if (part(step, 'types').status === 'running') controller.abort()
      },
    })
    expect(report.state).toBe('interrupted')
    expect(part(report, 'health').status).toBe('skipped')
  })

  it('refuses a second Check now while one runs; another organization gets 404', async () => {
    const path = `/api/applications/${chat.applicationId}/checks`
    const [first, second] = await Promise.all([
      call<CheckReport>(chat.actor, path, {}),
      new Promise((resolve) => setTimeout(resolve, 300)).then(() =>
        call<{ error: string }>(chat.actor, path, {}),
      ),
    ])
    expect(first.status).toBe(200)
    expect(second).toEqual({
      status: 409,
      body: { error: 'A check of this app is already running.' },
    })
    const latest = await call<{ check: CheckReport & { runId: string | null } }>(
      chat.actor,
      `${path}/latest`,
    )
    expect(latest.body.check).toMatchObject({ id: first.body.id, runId: null })
    const outsider = await chat.harness.signUp()
    const other = {
      harness: chat.harness,
      user: outsider,
      organizationId: await chat.harness.createOrganization(outsider),
    }
    expect((await call(other, `${path}/latest`)).status).toBe(404)
    expect((await call(other, path, {})).status).toBe(404)
  })
})

/** The box, whose type check runs the hanging script instead of tsc. */
function withHangingTypeCheck(box: Devbox): Devbox {
  return {
    ...box,
    exec: (command, options) =>
      box.exec(command.includes('/tsc ') ? '.cache/hanging-tsc' : command, options),
  }
}
