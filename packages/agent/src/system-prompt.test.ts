import { expect, test } from 'vitest'
import { buildSystemPrompt } from './system-prompt.ts'

test('the system prompt carries the working rules of the vite-react template', () => {
  const prompt = buildSystemPrompt({
    appName: 'Recipe Box',
    today: new Date('2026-11-22T09:00:00Z'),
  })
  expect(prompt).toContain('one app called "Recipe Box"')
  expect(prompt).toContain('Today is 2026-11-22.')
  for (const rule of [
    'Never start, stop or restart it',
    'Read before you edit',
    'Prefer str_replace',
    'todos tool',
    'npm run build',
    'Be concise',
    'tests/acceptance/*.spec.ts with @playwright/test',
    'fix the app, not the test',
    'Use the browser tool',
    'The user selected in the preview:',
  ]) {
    expect(prompt).toContain(rule)
  }
})

test('apps of the full-stack starter learn both sides; client-only apps learn of none', () => {
  const fullStack = buildSystemPrompt({ appName: 'Guests' })
  for (const rule of [
    "fetch('/api/...')",
    'GET /api/health',
    'server/migrations/NNN_name.sql',
    'DATABASE_URL',
    'Secrets, API keys and tokens are used only on the server',
    'server_logs',
    '`<secret-request key="NAME" />`',
    'error_reports_list',
    "getAccessToken('linear')",
    'integration_guide',
    'await currentUser(c)',
    'mountAuthKit(app)',
  ]) {
    expect(fullStack).toContain(rule)
  }
  const clientOnly = buildSystemPrompt({ appName: 'Guests', backEnd: false })
  expect(clientOnly).toContain('This app has no server side')
  expect(clientOnly).not.toContain('server_logs')
  expect(clientOnly).not.toContain('getAccessToken')
  expect(clientOnly).not.toContain('currentUser')
  expect(clientOnly).not.toContain('DATABASE_URL')
})
