// Long file: every environment setting, its parsing and its typed result, in one place.
import path from 'node:path'
import { z } from 'zod'
import { authSecretFrom } from './auth-secret.ts'

const emailList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter((email) => email.length > 0),
  )

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined))

/** A vault master key: the base64 of 32 random bytes (docs/product/vault.md "Master key"). */
const vaultKeyMessage = 'must be the base64 of 32 random bytes, e.g. from `openssl rand -base64 32`'
const isVaultKey = (value: string) =>
  /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, 'base64').length === 32
const vaultKeyList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key.length > 0),
  )
  .refine((keys) => keys.every(isVaultKey), `every key ${vaultKeyMessage}`)

/** Comma-separated model ids. */
const modelList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((model) => model.trim())
      .filter((model) => model.length > 0),
  )

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1')

const rateLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, context) => {
      const match = /^(\d+)\/(\d+)$/.exec(value.trim())
      if (!match) {
        context.addIssue({
          code: 'custom',
          message: 'must look like MAX/SECONDS, for example 10/60',
        })
        return z.NEVER
      }
      return { max: Number(match[1]), windowSeconds: Number(match[2]) }
    })

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Unset: every interface, IPv6 too where there is one, so http://[::1]:PORT reaches it.
  HOST: optionalText,
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: optionalText,
  // With DATABASE_URL: several instances share boxes and deploys here (docs/decisions/033-box-leases-and-relay.md).
  SHARED_DIR: optionalText,
  PUBLIC_URL: optionalText,
  PREVIEW_DOMAIN: z.string().default('preview.localhost'),
  APPS_DOMAIN: z.string().default('apps.localhost'),
  // Fractions allowed (tests use a second or two); 0: production servers are never stopped for idleness.
  APPS_IDLE_MINUTES: z.coerce.number().min(0).max(525_600).default(15),
  APPS_DISK_MB: z.coerce.number().int().min(16).max(10_485_760).default(1024),
  ADMIN_EMAILS: emailList,
  // Mail (docs/product/mail.md): smtp:// or smtps://, credentials in the URL or the two below.
  SMTP_URL: optionalText.refine(
    (url) => url === undefined || (URL.canParse(url) && /^smtps?:$/.test(new URL(url).protocol)),
    'must be an smtp:// or smtps:// address',
  ),
  SMTP_USER: optionalText,
  SMTP_PASSWORD: optionalText,
  MAIL_FROM: optionalText,
  REQUIRE_EMAIL_VERIFICATION: booleanFlag,
  // Who may create an account (docs/product/auth.md "Sign-up rules"); the admin's stored choice wins.
  SIGNUP: z.enum(['open', 'invite', 'closed']).default('open'),
  SIGNUP_DOMAINS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((domain) => domain.trim().toLowerCase().replace(/^@/, ''))
        .filter((domain) => domain.length > 0),
    ),
  // The repair turn after a check that found problems (docs/product/checks.md "One repair").
  AUTO_REPAIR: z.enum(['on', 'off']).default('on'),
  // The check after every run that changed files; Check now and run_checks work either way.
  CHECKS: z.enum(['on', 'off']).default('on'),
  // The check's acceptance part: the app's browser tests (docs/product/checks.md).
  ACCEPTANCE_TESTS: z.enum(['on', 'off']).default('on'),
  // The agent's browser tool (docs/product/tool-calls.md "browser").
  BROWSER_TOOL: z.enum(['on', 'off']).default('on'),
  // Single sign-on with OpenID Connect (docs/product/auth.md "Single sign-on").
  OIDC_ISSUER: optionalText.refine(
    (url) => url === undefined || /^https?:\/\//.test(url),
    'must be an http(s):// address',
  ),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_NAME: optionalText,
  SSO_ONLY: booleanFlag,
  VAULT_KEY: optionalText.refine((key) => key === undefined || isVaultKey(key), vaultKeyMessage),
  // Older master keys, comma-separated: still read, never used to encrypt (key rotation).
  VAULT_KEYS: vaultKeyList,
  AUTH_SECRET: optionalText,
  AUTH_RATE_LIMIT: rateLimit('10/60'),
  // Decision 004: failed password attempts per account from any address, and mails per address.
  AUTH_ACCOUNT_RATE_LIMIT: rateLimit('20/900'),
  AUTH_MAIL_RATE_LIMIT: rateLimit('3/900'),
  // Error events each application may send per window (docs/product/error-monitoring.md "Ingest").
  ERRORS_RATE_LIMIT: rateLimit('3000/60'),
  // The Google Picker API's script for 'Select Files' (docs/product/integrations.md "Settings screen").
  GOOGLE_PICKER_SCRIPT_URL: z
    .string()
    .url()
    .refine((url) => /^https:|^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(url), {
      message: 'must be an https:// address (http:// only for localhost)',
    })
    .default('https://apis.google.com/js/api.js'),
  TRUST_PROXY: booleanFlag,
  // docs/product/audit.md: events older than this many days are removed.
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  ANTHROPIC_API_KEY: optionalText,
  ANTHROPIC_BASE_URL: z.string().default('https://api.anthropic.com/v1'),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: z.string().default('https://api.openai.com/v1'),
  XAI_API_KEY: optionalText,
  XAI_BASE_URL: z.string().default('https://api.x.ai/v1'),
  OPENAI_COMPATIBLE_BASE_URL: optionalText,
  OPENAI_COMPATIBLE_API_KEY: optionalText,
  OPENAI_COMPATIBLE_MODELS: modelList,
  OPENAI_COMPATIBLE_IMAGE_MODELS: modelList,
  WEB_DIST_DIR: optionalText,
  DEMO_TEST_GATES_DIR: optionalText,
  SEARXNG_URL: optionalText,
  BRAVE_SEARCH_API_KEY: optionalText,
  TAVILY_API_KEY: optionalText,
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(1024 * 1024),
  DEVBOX_SANDBOX: z.enum(['auto', 'off']).default('auto'),
  DEVBOX_DISK: z.enum(['auto', 'measured']).default('auto'),
  DEVBOX_POOL_TARGET: z.coerce.number().int().min(0).max(50).default(2),
  DEVBOX_MAX_STARTS: z.coerce.number().int().min(1).max(256).optional(),
  DEVBOX_CACHE_DIR: optionalText,
  DEVBOX_EGRESS: z.enum(['open', 'registry', 'none']).default('open'),
  DEVBOX_PIDS: z.coerce.number().int().min(16).max(100_000).default(256),
  DEVBOX_MEMORY_MB: z.coerce.number().int().min(64).max(1_048_576).default(1024),
  DEVBOX_CPUS: z.coerce.number().min(0.05).max(1024).default(1),
  DEVBOX_DISK_MB: z.coerce.number().int().min(64).max(10_485_760).default(2048),
  DEVBOX_UID: z.coerce.number().int().min(1000).max(4_294_967_294).default(61000),
  // Fractions allowed (tests use a second or two); 0: dev servers are never stopped for idleness.
  DEVBOX_IDLE_MINUTES: z.coerce.number().min(0).max(525_600).default(10),
  // Boxes as pods (docs/decisions/037-kubernetes-driver-and-test-api-server.md).
  DEVBOX_DRIVER: z.enum(['local', 'kubernetes']).default('local'),
  KUBERNETES_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, 'must be a namespace name')
    .default('sprout-boxes'),
  KUBERNETES_BOX_IMAGE: z.string().min(1).default('sprout-box:latest'),
  KUBERNETES_RUNTIME_CLASS: optionalText,
  // The egress proxy's Service (deploy/kubernetes/egress-proxy.yaml), resolved by Sprout: boxes
  // have no DNS (docs/decisions/039-egress-proxy-for-pods.md).
  KUBERNETES_EGRESS_PROXY: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?:\d{1,5}$/, 'must be host:port')
    .default('sprout-egress-proxy:3128'),
  // How Sprout reaches a pod's agent and dev server: at its address from inside the cluster, or
  // through the API server's port-forward from outside it (docs/decisions/040-resident-box-agent.md).
  KUBERNETES_REACH_PODS: z.enum(['pod-address', 'port-forward']).default('pod-address'),
  // Set by npm when Sprout runs through `npm start`: the registry boxes may reach with DEVBOX_EGRESS=registry.
  npm_config_registry: z.string().url().default('https://registry.npmjs.org/'),
  // Private or loopback git hosts 'Push to Git' may reach (host or host:port, comma-separated).
  GIT_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter((host) => host.length > 0),
    ),
})

export type Config = {
  port: number
  host: string | undefined
  dataDir: string
  databaseUrl: string | undefined
  /**
   * SHARED_DIR: the folder every instance mounts (boxes, deploys); set, with DATABASE_URL, boxes
   * have one owner at a time and other instances relay to it (decision 033).
   */
  sharedDir: string | undefined
  publicUrl: string
  previewDomain: string
  appsDomain: string
  /** APPS_IDLE_MINUTES: a production server without a request this long is stopped until the next. */
  appsIdleMinutes: number
  /** APPS_DISK_MB: the size of each deployed app's data folder (its own filesystem as root). */
  appsDiskMb: number
  adminEmails: string[]
  /** SMTP_URL and the rest: unset, mail is not configured and every flow works by links. */
  mail: {
    smtpUrl: string | undefined
    user: string | undefined
    password: string | undefined
    /** MAIL_FROM, or `Sprout <sprout@{host of PUBLIC_URL}>`. */
    from: string
  }
  /** REQUIRE_EMAIL_VERIFICATION: sign-in waits for the address to be confirmed (needs mail). */
  requireEmailVerification: boolean
  /** SIGNUP and SIGNUP_DOMAINS: the defaults of the admin's sign-up rules. */
  signup: { mode: 'open' | 'invite' | 'closed'; domains: string[] }
  /** AUTO_REPAIR=off: no organization gets a repair turn after a failed check. */
  autoRepair: boolean
  /** CHECKS=off: no check after runs (docs/product/checks.md "The check"). */
  checkAfterRuns: boolean
  /** ACCEPTANCE_TESTS=off: every check skips the app's acceptance tests. */
  acceptanceTests: boolean
  /** BROWSER_TOOL=off: builder runs have no browser tool. */
  browserTool: boolean
  /** OIDC_*: single sign-on configured by the environment (the admin may set one instead). */
  oidc:
    | { issuer: string; clientId: string; clientSecret: string | undefined; name: string }
    | undefined
  /** SSO_ONLY: the sign-in screens offer single sign-on only. */
  ssoOnly: boolean
  /** VAULT_KEY: encrypts the vault; unset, a key file in DATA_DIR is used. */
  vaultKey: string | undefined
  /** VAULT_KEYS: older master keys, still accepted for decryption while values are re-encrypted. */
  vaultKeys: string[]
  /**
   * AUTH_SECRET: signs sessions and seals the JWT key. Unset with SHARED_DIR, derived from
   * VAULT_KEY so every instance agrees (decision 035); unset otherwise, the key file in DATA_DIR.
   */
  authSecret: string | undefined
  authRateLimit: { max: number; windowSeconds: number }
  /** AUTH_ACCOUNT_RATE_LIMIT: failed sign-ins (and current-password checks) per account. */
  authAccountRateLimit: { max: number; windowSeconds: number }
  /** AUTH_MAIL_RATE_LIMIT: verification or password-reset mails per address, each kind. */
  authMailRateLimit: { max: number; windowSeconds: number }
  /** ERRORS_RATE_LIMIT: error events per application per window, then 429 with Retry-After. */
  errorsRateLimit: { max: number; windowSeconds: number }
  /** GOOGLE_PICKER_SCRIPT_URL: the Picker API's script; its origin is allowed by the product's CSP. */
  googlePickerScriptUrl: string
  trustProxy: boolean
  /** AUDIT_RETENTION_DAYS: how long audit events are kept. */
  auditRetentionDays: number
  /** GIT_ALLOWED_HOSTS: private or loopback hosts (host or host:port) 'Push to Git' may reach. */
  gitAllowedHosts: string[]
  /** Largest request body accepted by any route, checked before parsing (MAX_BODY_BYTES). */
  maxBodyBytes: number
  providers: {
    anthropic: { apiKey: string | undefined; baseUrl: string }
    openai: { apiKey: string | undefined; baseUrl: string }
    xai: { apiKey: string | undefined; baseUrl: string }
    openaiCompatible: {
      baseUrl: string | undefined
      apiKey: string | undefined
      models: string[]
      imageModels: string[]
    }
    /** Tests only: the Demo model's test gates (docs/decisions/013-test-gates.md). */
    demo: { testGatesDir: string | undefined }
  }
  webDistDir: string
  devbox: {
    sandbox: 'auto' | 'off'
    /** DEVBOX_DISK: `auto` gives each box a filesystem of its own where the machine allows it. */
    disk: 'auto' | 'measured'
    poolTarget: number
    /** DEVBOX_MAX_STARTS: dev boxes starting at once, the others wait; none: one per CPU. */
    maxStarts: number | undefined
    cacheDir: string | undefined
    egress: 'open' | 'registry' | 'none'
    limits: { pids: number; memoryMb: number; cpus: number; diskMb: number }
    boxUid: number
    registryUrl: string
    /** DEVBOX_IDLE_MINUTES: a dev server unused this long is stopped until its next use. */
    idleMinutes: number
    /** DEVBOX_DRIVER: boxes as local processes, or as pods of KUBECONFIG's cluster. */
    driver: 'local' | 'kubernetes'
    kubernetes: {
      namespace: string
      boxImage: string
      runtimeClass: string | undefined
      /** host:port of the egress proxy's Service. */
      egressProxy: string
      reachPods: 'pod-address' | 'port-forward'
    }
  }
  /** Where the agent's web_search goes; the tool is not offered when none is set. */
  webSearch: { searxngUrl?: string; braveApiKey?: string; tavilyApiKey?: string }
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

function publicUrlOf(values: Pick<z.output<typeof environmentSchema>, 'PUBLIC_URL' | 'PORT'>) {
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '')
  if (!URL.canParse(publicUrl)) {
    throw new ConfigError(`Invalid environment settings: PUBLIC_URL is not a URL: ${publicUrl}`)
  }
  return publicUrl
}

function invalidSettings(error: z.ZodError) {
  const problems = error.issues
    .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    .join('; ')
  return new ConfigError(`Invalid environment settings: ${problems}`)
}

/** Several instances share a database and a key; PGlite serves one process (decision 033). */
function sharedDirOf(values: z.output<typeof environmentSchema>) {
  if (!values.SHARED_DIR) return undefined
  if (!(values.DATABASE_URL && values.VAULT_KEY)) {
    throw new ConfigError(
      'Invalid environment settings: SHARED_DIR needs DATABASE_URL and VAULT_KEY, the same on every instance (PGlite serves one process)',
    )
  }
  return path.resolve(values.SHARED_DIR)
}

/** Several instances share VAULT_KEY: without AUTH_SECRET they derive one from it (decision 035). */
function authSecretOf(values: z.output<typeof environmentSchema>, sharedDir: string | undefined) {
  if (values.AUTH_SECRET) return values.AUTH_SECRET
  return sharedDir && values.VAULT_KEY ? authSecretFrom(values.VAULT_KEY) : undefined
}

/** Parses the environment once; everything else receives the typed result. */
export function parseConfig(environment: Record<string, string | undefined>): Config {
  const parsed = environmentSchema.safeParse(environment)
  if (!parsed.success) throw invalidSettings(parsed.error)
  const values = parsed.data
  const publicUrl = publicUrlOf(values)
  const sharedDir = sharedDirOf(values)
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    sharedDir,
    publicUrl,
    previewDomain: values.PREVIEW_DOMAIN.toLowerCase(),
    appsDomain: values.APPS_DOMAIN.toLowerCase(),
    appsIdleMinutes: values.APPS_IDLE_MINUTES,
    appsDiskMb: values.APPS_DISK_MB,
    adminEmails: values.ADMIN_EMAILS,
    mail: {
      smtpUrl: values.SMTP_URL,
      user: values.SMTP_USER,
      password: values.SMTP_PASSWORD,
      from: values.MAIL_FROM ?? `Sprout <sprout@${new URL(publicUrl).hostname}>`,
    },
    requireEmailVerification: values.REQUIRE_EMAIL_VERIFICATION,
    signup: { mode: values.SIGNUP, domains: values.SIGNUP_DOMAINS },
    autoRepair: values.AUTO_REPAIR === 'on',
    checkAfterRuns: values.CHECKS === 'on',
    acceptanceTests: values.ACCEPTANCE_TESTS === 'on',
    browserTool: values.BROWSER_TOOL === 'on',
    oidc:
      values.OIDC_ISSUER && values.OIDC_CLIENT_ID
        ? {
            issuer: values.OIDC_ISSUER.replace(/\/+$/, ''),
            clientId: values.OIDC_CLIENT_ID,
            clientSecret: values.OIDC_CLIENT_SECRET,
            name: values.OIDC_NAME ?? 'SSO',
          }
        : undefined,
    ssoOnly: values.SSO_ONLY,
    vaultKey: values.VAULT_KEY,
    vaultKeys: values.VAULT_KEYS,
    authSecret: authSecretOf(values, sharedDir),
    authRateLimit: values.AUTH_RATE_LIMIT,
    authAccountRateLimit: values.AUTH_ACCOUNT_RATE_LIMIT,
    authMailRateLimit: values.AUTH_MAIL_RATE_LIMIT,
    errorsRateLimit: values.ERRORS_RATE_LIMIT,
    googlePickerScriptUrl: values.GOOGLE_PICKER_SCRIPT_URL,
    trustProxy: values.TRUST_PROXY,
    auditRetentionDays: values.AUDIT_RETENTION_DAYS,
    maxBodyBytes: values.MAX_BODY_BYTES,
    providers: {
      anthropic: { apiKey: values.ANTHROPIC_API_KEY, baseUrl: values.ANTHROPIC_BASE_URL },
      openai: { apiKey: values.OPENAI_API_KEY, baseUrl: values.OPENAI_BASE_URL },
      xai: { apiKey: values.XAI_API_KEY, baseUrl: values.XAI_BASE_URL },
      openaiCompatible: {
        baseUrl: values.OPENAI_COMPATIBLE_BASE_URL,
        apiKey: values.OPENAI_COMPATIBLE_API_KEY,
        models: values.OPENAI_COMPATIBLE_MODELS,
        imageModels: values.OPENAI_COMPATIBLE_IMAGE_MODELS,
      },
      demo: {
        testGatesDir: values.DEMO_TEST_GATES_DIR
          ? path.resolve(values.DEMO_TEST_GATES_DIR)
          : undefined,
      },
    },
    webDistDir: path.resolve(values.WEB_DIST_DIR ?? 'apps/web/dist'),
    webSearch: {
      ...(values.SEARXNG_URL ? { searxngUrl: values.SEARXNG_URL } : {}),
      ...(values.BRAVE_SEARCH_API_KEY ? { braveApiKey: values.BRAVE_SEARCH_API_KEY } : {}),
      ...(values.TAVILY_API_KEY ? { tavilyApiKey: values.TAVILY_API_KEY } : {}),
    },
    gitAllowedHosts: values.GIT_ALLOWED_HOSTS,
    devbox: devboxConfigOf(values),
  }
}

/** The dev boxes' settings (DEVBOX_*, KUBERNETES_*). */
function devboxConfigOf(values: z.output<typeof environmentSchema>): Config['devbox'] {
  return {
    sandbox: values.DEVBOX_SANDBOX,
    disk: values.DEVBOX_DISK,
    poolTarget: values.DEVBOX_POOL_TARGET,
    maxStarts: values.DEVBOX_MAX_STARTS,
    cacheDir: values.DEVBOX_CACHE_DIR ? path.resolve(values.DEVBOX_CACHE_DIR) : undefined,
    egress: values.DEVBOX_EGRESS,
    limits: {
      pids: values.DEVBOX_PIDS,
      memoryMb: values.DEVBOX_MEMORY_MB,
      cpus: values.DEVBOX_CPUS,
      diskMb: values.DEVBOX_DISK_MB,
    },
    boxUid: values.DEVBOX_UID,
    registryUrl: values.npm_config_registry,
    idleMinutes: values.DEVBOX_IDLE_MINUTES,
    driver: values.DEVBOX_DRIVER,
    kubernetes: {
      namespace: values.KUBERNETES_NAMESPACE,
      boxImage: values.KUBERNETES_BOX_IMAGE,
      runtimeClass: values.KUBERNETES_RUNTIME_CLASS,
      egressProxy: values.KUBERNETES_EGRESS_PROXY,
      reachPods: values.KUBERNETES_REACH_PODS,
    },
  }
}
