import { defineConfig } from 'vitest/config'

const serverInclude = ['apps/server/src/**/*.test.ts']
/**
 * Suites about dev boxes, their proxies, reporters and browsers: what they store is tested on
 * PostgreSQL by the other suites, so they run once, on PGlite, and CI stays under 25 minutes.
 */
const pgliteOnly = [
  'apps/server/src/devboxes/**/*.test.ts',
  'apps/server/src/error-monitoring/reporter/*.test.ts',
  'apps/server/src/error-monitoring/symbolicate.test.ts',
  'apps/server/src/app-runtime/app-token-box.test.ts',
  'apps/server/src/vault/vault-servers.test.ts',
  'apps/server/src/checks/**/*.test.ts',
  'apps/server/src/runs/check-and-repair.test.ts',
  'apps/server/src/runs/browser-tool.test.ts',
  'apps/server/src/runs/acceptance-repair.test.ts',
  'apps/server/src/runs/selections.test.ts',
  // Git, previews and error reports in real boxes: their cost is the box's, and the rows they
  // write are the runs', applications' and versions' plain ones (16–50 s of CPU each on
  // PostgreSQL, docs/performance.md "2026-12-02 · session 14").
  'apps/server/src/versions/git-push*.test.ts',
  'apps/server/src/versions/versions.test.ts',
  'apps/server/src/applications/applications.test.ts',
  'apps/server/src/runs/run-error-reports.test.ts',
  'apps/server/src/runs/demo-resume.test.ts',
  'apps/server/src/vault/vault-error-reports.test.ts',
  // Routes, request guards and the Code tab's files act the same on either database.
  'apps/server/src/route-matrix.test.ts',
  'apps/server/src/http/fuzz.test.ts',
  'apps/server/src/versions/file-routes.test.ts',
  'apps/server/src/versions/download.test.ts',
  'apps/server/src/http/same-origin.test.ts',
  'apps/server/src/http/loopback-origins.test.ts',
  'apps/server/src/http/http-surface.test.ts',
  'apps/server/src/http/request-guards.test.ts',
  'apps/server/src/http/cached-router.test.ts',
  // The stream's replay and reconnection; the event store itself runs on both.
  'apps/server/src/conversations/reconnect.test.ts',
  // No database at all: logic and files.
  'apps/server/src/error-monitoring/preview-symbolicate.test.ts',
  'apps/server/src/error-monitoring/grouping.test.ts',
  'apps/server/src/config/**/*.test.ts',
  'apps/server/src/testing/haproxy-process.test.ts',
  'apps/server/src/cluster/relay-streams.test.ts',
  'apps/server/src/applications/name-from-prompt.test.ts',
  'apps/server/src/auth/session-types.test.ts',
  'apps/server/src/models/runnable-model.test.ts',
  'apps/server/src/evaluations/transcript.test.ts',
  'apps/server/src/runs/well-formed-text.test.ts',
]
const postgresUrl = process.env.TEST_DATABASE_URL

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one: a single worker here. Most suites wait on
    // dev boxes, servers and browsers rather than the CPU, so two share these 2 cores well (three
    // took as long, 1,308 s against 1,311 s on this machine, with more load).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['packages/devbox/src/testing/prepare-template-cache.ts'],
    // The node projects run their files one after another in each worker without a new module
    // registry per file (`isolate: false`): the server, PGlite's WebAssembly and the rest are
    // imported once per worker, not once per suite (decision 029). The web's DOM stays isolated.

    projects: [
      { test: { name: 'packages', include: ['packages/**/src/**/*.test.ts'], isolate: false } },
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], isolate: false } },
      { test: { name: 'security', include: ['tests/security/**/*.test.ts'], isolate: false } },
      { test: { name: 'docs', include: ['tests/docs/**/*.test.ts'] } },
      { test: { name: 'architecture', include: ['tests/architecture/**/*.test.ts'] } },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
        },
      },
      {
        test: {
          name: 'server-pglite',
          include: serverInclude,
          isolate: false,
          env: { SPROUT_TEST_DATABASE: 'pglite' },
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                name: 'server-postgres',
                include: serverInclude,
                isolate: false,
                exclude: pgliteOnly,
                env: { SPROUT_TEST_DATABASE: 'postgres', TEST_DATABASE_URL: postgresUrl },
              },
            },
          ]
        : []),
    ],
  },
})
