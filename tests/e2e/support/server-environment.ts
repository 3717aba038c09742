import os from 'node:os'
import { adminUser } from './users.ts'

/**
 * The settings of every Sprout server the browser tests start (the shared one of
 * playwright.config.ts and a test's own): one pooled box and only the Demo model.
 */
export function serverEnvironment(port: number, dataDir: string) {
  return {
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    AUTH_RATE_LIMIT: '1000/60',
    AUTH_ACCOUNT_RATE_LIMIT: '1000/60',
    AUTH_MAIL_RATE_LIMIT: '1000/60',
    DEVBOX_POOL_TARGET: '1',
    // Shared with the server tests, so the starter's dependencies are installed once.
    DEVBOX_CACHE_DIR: `${os.tmpdir()}/sprout-devbox-test-cache`,
    // No provider keys: only the Demo model is available, whatever the shell has set.
    ANTHROPIC_API_KEY: '',
    OPENAI_API_KEY: '',
    XAI_API_KEY: '',
    OPENAI_COMPATIBLE_BASE_URL: '',
    // The first account is an admin only when listed (docs/product/auth.md "The first admin").
    ADMIN_EMAILS: adminUser.email,
    // The check after runs costs seconds per run, its acceptance tests a browser: the checks test
    // starts its own server with them.
    CHECKS: 'off',
    ACCEPTANCE_TESTS: 'off',
    // Tests hold Demo runs open at a named gate (tests/e2e/support/test-gates.ts).
    DEMO_TEST_GATES_DIR: `${process.env.SPROUT_E2E_DATA_DIR}/test-gates`,
  }
}
