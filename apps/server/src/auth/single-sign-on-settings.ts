import type { SealedColumn } from '@sprout/db/schema/integrations.ts'
import {
  type SaveSingleSignOn,
  SINGLE_SIGN_ON_MESSAGES,
  type SingleSignOnView,
} from '@sprout/protocol/api/single-sign-on.ts'
import type { Config } from '../config/config.ts'
import { badRequest } from '../http/app-error.ts'
import type { VaultKeyring } from '../sealing/master-keys.ts'
import { openSecret, sealSecret } from '../sealing/secret-sealing.ts'
import type { InstallationSettings } from '../settings/installation-settings.ts'
import type { Auth } from './auth.ts'
import {
  callbackUrlOf,
  discoveryUrlOf,
  installProvider,
  type SingleSignOnSettings,
} from './single-sign-on.ts'

/** The admin's configuration, stored over the environment's (docs/product/admin.md "Access tab"). */
type StoredSingleSignOn = {
  issuer: string
  clientId: string
  name: string
  clientSecret: SealedColumn | null
}

const settingKey = 'single-sign-on'
/** A setting's value cannot be null: removing the admin's configuration stores `null` inside. */
type StoredSetting = { configuration: StoredSingleSignOn | null }
// The associated data of the sealed secret: copied into another setting, it no longer opens.
const sealOwner = 'installation:single-sign-on'
const sealField = 'client_secret'
const discoveryTimeoutMs = 10_000

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '')

/**
 * Which single sign-on the installation offers, the admin's calls that change it, and the
 * running auth kept in step with it (an admin's change applies without a restart).
 */
export function createSingleSignOn(options: {
  auth: Auth
  settings: InstallationSettings
  keyring: VaultKeyring
  config: Pick<Config, 'oidc' | 'publicUrl'>
}) {
  const { auth, settings, keyring, config } = options
  let offered: { name: string } | undefined = config.oidc ? { name: config.oidc.name } : undefined

  const stored = async () =>
    (await settings.get<StoredSetting>(settingKey, { configuration: null })).configuration
  const store = (configuration: StoredSingleSignOn | null) =>
    settings.set<StoredSetting>(settingKey, { configuration })

  const open = (sealed: SealedColumn | null) => {
    if (!sealed) return undefined
    const key = keyring.byId.get(sealed.keyId)
    if (!key) throw new Error(`No configured vault key ${sealed.keyId} opens the SSO client secret`)
    return openSecret(key, sealOwner, sealField, sealed)
  }

  const seal = (secret: string): SealedColumn => ({
    ...sealSecret(keyring.current.key, sealOwner, sealField, secret),
    keyId: keyring.current.id,
  })

  const effective = async (): Promise<SingleSignOnSettings | undefined> => {
    const admin = await stored()
    if (!admin) return config.oidc
    return { ...admin, clientSecret: open(admin.clientSecret) }
  }

  const apply = async () => {
    const value = await effective()
    await installProvider(auth, value)
    offered = value ? { name: value.name } : undefined
  }

  return {
    /** For the sign-in screens (GET /api/sign-in-options): the button's name, or none. */
    current: () => offered,
    /** At start: the admin's stored configuration replaces the environment's (built already). */
    start: async () => {
      const admin = await stored()
      if (!admin) return
      // Key rotation (docs/product/vault.md "Master key"): a secret under an older key moves to
      // VAULT_KEY, as the vault's and the integrations' do.
      const sealed = admin.clientSecret
      if (sealed && sealed.keyId !== keyring.current.id) {
        await store({ ...admin, clientSecret: seal(open(sealed) ?? '') })
      }
      await apply()
    },
    view: async (): Promise<SingleSignOnView> => {
      const admin = await stored()
      const source = admin ? 'admin' : config.oidc ? 'environment' : 'none'
      const shown = admin ?? config.oidc
      return {
        source,
        issuer: shown?.issuer ?? null,
        clientId: shown?.clientId ?? null,
        name: shown?.name ?? null,
        hasSecret: admin ? admin.clientSecret !== null : Boolean(config.oidc?.clientSecret),
        callbackUrl: callbackUrlOf(config.publicUrl),
      }
    },
    /**
     * A blank secret keeps the stored one while the issuer and client stay the same (it is
     * never sent to another issuer); otherwise the client has none (PKCE only).
     */
    save: async (input: SaveSingleSignOn) => {
      await checkDiscovery(input.issuer)
      const previous = await stored()
      const secret = input.clientSecret?.trim() ?? ''
      const isSameClient = previous?.issuer === input.issuer && previous.clientId === input.clientId
      const sealed =
        secret !== '' ? seal(secret) : isSameClient ? (previous?.clientSecret ?? null) : null
      const value: StoredSingleSignOn = {
        issuer: input.issuer,
        clientId: input.clientId,
        name: input.name,
        clientSecret: sealed,
      }
      await store(value)
      await apply()
    },
    /** Back to the environment's configuration, if any. */
    remove: async () => {
      await store(null)
      await apply()
    },
  }
}

export type SingleSignOn = ReturnType<typeof createSingleSignOn>

/** The issuer must answer its discovery document and name itself in it (OpenID Connect Discovery 4.3). */
async function checkDiscovery(issuer: string) {
  const document = await fetch(discoveryUrlOf(issuer), {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(discoveryTimeoutMs),
  })
    .then((response) => (response.ok ? response.json() : undefined))
    .catch(() => undefined)
  const fields = (document ?? {}) as Record<string, unknown>
  const complete = ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'].every(
    (field) => typeof fields[field] === 'string',
  )
  if (!complete) throw badRequest(SINGLE_SIGN_ON_MESSAGES.discoveryFailed(issuer))
  const announced = String(fields.issuer)
  if (withoutTrailingSlash(announced) !== issuer) {
    throw badRequest(SINGLE_SIGN_ON_MESSAGES.issuerMismatch(issuer, announced))
  }
}
