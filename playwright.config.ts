import { defineConfig, type ReporterDescription } from '@playwright/test'
import { chromiumArgs } from './scripts/chromium-args.ts'
import { serverEnvironment } from './tests/e2e/support/server-environment.ts'

// E2E_PORT lets a second run (e.g. a CI rehearsal in another clone) share the machine.
const port = Number(process.env.E2E_PORT) || 3100
const baseURL = `http://localhost:${port}`

// One fresh data directory per run. The config is also loaded by each worker; they inherit the
// value from the runner's environment, so every process agrees on it.
process.env.SPROUT_E2E_DATA_DIR ??= `.tmp/e2e-data-${Date.now()}-${process.pid}`

// scripts/test.ts asks for a JSON report (for its summary line) through this variable.
const reporter: ReporterDescription[] = process.env.PLAYWRIGHT_JSON_OUTPUT_NAME
  ? [['list'], ['json']]
  : [['list']]

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter,
  use: {
    baseURL,
    viewport: { width: 1280, height: 800 },
    // A failure's trace keeps every action's DOM snapshot, not the screencast: its frames cost a
    // third of Chromium's CPU on 2 cores (docs/performance.md "2026-12-02 · session 13").
    trace: { mode: 'retain-on-failure', screenshots: false },
    // As users who ask for less motion see it: spinners stand still. Each spinning frame is
    // composited in software here (docs/performance.md "2026-12-02 · session 13").
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: chromiumArgs,
    },
  },
  webServer: {
    // npm's own Node 24 runs scripts/start.ts, which builds the web app first when it is stale.
    command: 'npm start',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: serverEnvironment(port, process.env.SPROUT_E2E_DATA_DIR),
    // Stopped as a self-hoster stops it: Sprout lets go of its boxes' mounts and loop devices,
    // which a SIGKILL left behind after every run (docs/architecture/devbox.md "Disk").
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  },
})
