import path from 'node:path'

const systemPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
/** Certificate settings are not secrets, and without them TLS (npm install) fails behind a proxy. */
const certificateVariables = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR']

/**
 * The environment of every process in a box. It is built from scratch, never from
 * `process.env`, so the product's own secrets (API keys, VAULT_KEY, DATABASE_URL) never reach
 * app code.
 */
export function boxEnvironment(
  workspacePath: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  const certificates = Object.fromEntries(
    certificateVariables.flatMap((name) => {
      const value = process.env[name]
      return value ? [[name, value]] : []
    }),
  )
  return {
    ...certificates,
    // The server's own Node (the pinned Node 24) comes first, so the box runs the same version.
    PATH: `${path.dirname(process.execPath)}:${systemPath}`,
    HOME: workspacePath,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    // Tools behave non-interactively: no prompts, no watch modes waiting for a keypress.
    CI: 'true',
    // Output is read by people and the agent in a chat, not a terminal.
    NO_COLOR: '1',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  }
}
