import { randomUUID } from 'node:crypto'
import type { Database, DatabaseHandle } from '@sprout/db/database.ts'
import { vaultSecrets } from '@sprout/db/schema/vault-secrets.ts'
import {
  type SetSecretRequest,
  secretKeyProblem,
  secretValueProblem,
  type VaultEntry,
} from '@sprout/protocol/api/vault.ts'
import { createSecretRedactor, type SecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { and, asc, eq, ne } from 'drizzle-orm'
import { findApplicationRecord } from '../applications/service.ts'
import { badRequest, notFound } from '../http/app-error.ts'
import type { RequestContext } from '../http/request-context.ts'
import type { VaultKeyring } from '../sealing/master-keys.ts'
import { openSecret, sealSecret } from '../sealing/secret-sealing.ts'

/** An application's secrets as its processes get them, and the redaction of their values. */
export type ApplicationSecrets = { env: Record<string, string>; redactor: SecretRedactor }

/**
 * What runs use (docs/product/vault.md "Where values go"): `load` reads the secrets afresh;
 * `current` is the latest loaded, kept up to date by this process's changes to the vault.
 */
export type RunSecrets = {
  load: (applicationId: string) => Promise<ApplicationSecrets>
  current: (applicationId: string) => ApplicationSecrets | undefined
}

/** Told after a secret of the application was set or deleted (its servers get the new values). */
export type VaultChangeListener = (applicationId: string) => void

/**
 * docs/product/vault.md: an application's write-only secrets. Callers' requests go through the
 * `*For` functions (scoped to the caller's organization); `secretsOf` is for the server itself —
 * it is what reaches the app's processes and the agent's commands, and nothing else.
 */
export type Vault = ReturnType<typeof createVault>

/** Other server processes hear of a change here, so their app servers get the new values too. */
const changeChannel = 'sprout_vault_changed'

export function createVault({
  database,
  keyring,
}: {
  database: DatabaseHandle
  keyring: VaultKeyring
}) {
  const db = database.db
  const instanceId = randomUUID()
  let stopListening: (() => Promise<void>) | undefined
  const listeners = new Set<VaultChangeListener>()
  const loaded = new Map<string, ApplicationSecrets>()
  const load = async (applicationId: string): Promise<ApplicationSecrets> => {
    const env = await readSecrets(db, keyring, applicationId)
    const secrets = { env, redactor: createSecretRedactor(env) }
    loaded.set(applicationId, secrets)
    return secrets
  }
  /** Every application's secrets, so redaction is ready for any of them (error reports, logs). */
  const loadAll = async () => {
    const applicationIds = await db
      .selectDistinct({ applicationId: vaultSecrets.applicationId })
      .from(vaultSecrets)
    for (const { applicationId } of applicationIds) await load(applicationId)
  }
  const changed = async (applicationId: string) => {
    // Redaction covers a new value before the call that set it returns.
    await load(applicationId)
    for (const listener of listeners) listener(applicationId)
  }
  const changedHere = async (applicationId: string) => {
    await changed(applicationId)
    await database.notify(changeChannel, JSON.stringify({ instanceId, applicationId }))
  }

  const setFor = async (
    context: RequestContext,
    applicationId: string,
    input: SetSecretRequest,
  ): Promise<VaultEntry> => {
    const application = await findApplicationRecord(context, applicationId)
    const problem = secretKeyProblem(input.key) ?? secretValueProblem(input.value)
    if (problem) throw badRequest(problem)
    const sealed = sealSecret(keyring.current.key, application.id, input.key, input.value)
    const updatedAt = new Date()
    await db
      .insert(vaultSecrets)
      .values({
        applicationId: application.id,
        key: input.key,
        ...sealed,
        keyId: keyring.current.id,
      })
      .onConflictDoUpdate({
        target: [vaultSecrets.applicationId, vaultSecrets.key],
        set: { ...sealed, keyId: keyring.current.id, updatedAt },
      })
    await changedHere(application.id)
    return { key: input.key, updated_at: updatedAt.toISOString() }
  }

  const deleteFor = async (context: RequestContext, applicationId: string, key: string) => {
    const application = await findApplicationRecord(context, applicationId)
    const deleted = await db
      .delete(vaultSecrets)
      .where(and(eq(vaultSecrets.applicationId, application.id), eq(vaultSecrets.key, key)))
      .returning({ key: vaultSecrets.key })
    if (deleted.length === 0) throw notFound(`The vault has no secret named ${key}`)
    await changedHere(application.id)
  }

  const runSecrets: RunSecrets = { load, current: (applicationId) => loaded.get(applicationId) }
  return {
    keyring,
    listFor: (context: RequestContext, applicationId: string) =>
      listKeys(db, context, applicationId),
    setFor,
    deleteFor,
    secretsOf: (applicationId: string) => readSecrets(db, keyring, applicationId),
    reencrypt: () => reencryptSecrets(db, keyring),
    runSecrets,
    start: async () => {
      stopListening = await database.listen(
        changeChannel,
        (payload) => {
          const change = JSON.parse(payload) as { instanceId: string; applicationId: string }
          if (change.instanceId !== instanceId) void changed(change.applicationId)
        },
        {
          onReconnect: () =>
            void reloadAfterReconnect(db, loaded, load, (applicationId) => {
              for (const listener of listeners) listener(applicationId)
            }),
        },
      )
      await loadAll()
    },
    /** Redacts the application's secret values, synchronously (after `start`). */
    redact: (applicationId: string, text: string) =>
      loaded.get(applicationId)?.redactor.redact(text) ?? text,
    stop: async () => {
      await stopListening?.()
      stopListening = undefined
    },
    onChange: (listener: VaultChangeListener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/**
 * A change notified while the listener was reconnecting is lost: every application's values are
 * read again, and those that differ count as changed (their servers get the new values).
 */
async function reloadAfterReconnect(
  db: Database,
  loaded: ReadonlyMap<string, ApplicationSecrets>,
  load: (applicationId: string) => Promise<ApplicationSecrets>,
  changed: VaultChangeListener,
) {
  try {
    const rows = await db
      .selectDistinct({ applicationId: vaultSecrets.applicationId })
      .from(vaultSecrets)
    const applicationIds = new Set([...loaded.keys(), ...rows.map((row) => row.applicationId)])
    for (const applicationId of applicationIds) {
      const before = loaded.get(applicationId)?.env ?? {}
      const after = (await load(applicationId)).env
      if (!sameValues(before, after)) changed(applicationId)
    }
  } catch (error) {
    console.error('[vault] reloading after the listener reconnected failed:', error)
  }
}

function sameValues(first: Record<string, string>, second: Record<string, string>): boolean {
  const keys = Object.keys(first)
  return (
    keys.length === Object.keys(second).length && keys.every((key) => first[key] === second[key])
  )
}

/** An application's decrypted secrets, for its processes' environment (never for a response). */
export async function readSecrets(
  db: Database,
  keyring: VaultKeyring,
  applicationId: string,
): Promise<Record<string, string>> {
  const rows = await db
    .select()
    .from(vaultSecrets)
    .where(eq(vaultSecrets.applicationId, applicationId))
    .orderBy(asc(vaultSecrets.key))
  const secrets: Record<string, string> = {}
  for (const row of rows) {
    const masterKey = keyring.byId.get(row.keyId)
    if (!masterKey) throw new Error(`Vault master key ${row.keyId} is not configured`)
    secrets[row.key] = openSecret(masterKey, row.applicationId, row.key, row)
  }
  return secrets
}

/**
 * Re-encrypts every value still under an older key with the current one (key rotation). A row
 * changed meanwhile is left alone: its new value is already under the current key.
 */
export async function reencryptSecrets(db: Database, keyring: VaultKeyring): Promise<number> {
  const rows = await db
    .select()
    .from(vaultSecrets)
    .where(ne(vaultSecrets.keyId, keyring.current.id))
  let reencrypted = 0
  for (const row of rows) {
    const masterKey = keyring.byId.get(row.keyId)
    if (!masterKey) continue
    const value = openSecret(masterKey, row.applicationId, row.key, row)
    const sealed = sealSecret(keyring.current.key, row.applicationId, row.key, value)
    const updated = await db
      .update(vaultSecrets)
      .set({ ...sealed, keyId: keyring.current.id })
      .where(
        and(
          eq(vaultSecrets.applicationId, row.applicationId),
          eq(vaultSecrets.key, row.key),
          eq(vaultSecrets.ciphertext, row.ciphertext),
        ),
      )
      .returning({ key: vaultSecrets.key })
    reencrypted += updated.length
  }
  return reencrypted
}

/** The application's keys, sorted, with when each was last set; never a value. */
async function listKeys(
  db: Database,
  context: RequestContext,
  applicationId: string,
): Promise<VaultEntry[]> {
  const application = await findApplicationRecord(context, applicationId)
  const rows = await db
    .select({ key: vaultSecrets.key, updatedAt: vaultSecrets.updatedAt })
    .from(vaultSecrets)
    .where(eq(vaultSecrets.applicationId, application.id))
    .orderBy(asc(vaultSecrets.key))
  return rows.map((row) => ({ key: row.key, updated_at: row.updatedAt.toISOString() }))
}
