import { createHash, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { DevboxLogger } from '../../../logger.ts'
import { keptByBoxKeeper } from '../processes/process-group.ts'
import { runCommand } from '../processes/run-command.ts'
import { boxEnvironment } from '../sandbox/box-environment.ts'

const installTimeoutSeconds = 600
const completeMarker = '.sprout-complete'
const systemNpmrc = '/etc/npmrc'
/**
 * The machine's npm settings (Debian's npm reads `/etc/npmrc`: a proxy's certificate authority, a
 * registry mirror). The pinned Node's npm reads the file under its own prefix instead, so without
 * this a machine whose npm works fails the template's install. Not given to app code: a machine's
 * npmrc may hold registry tokens.
 */
function systemNpmConfig(): Record<string, string> {
  return existsSync(systemNpmrc) ? { npm_config_globalconfig: systemNpmrc } : {}
}

/** Only this install on the server's behalf uses the server's proxy; boxes do not get it. */
const proxyVariables = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
]

export type DependencyCache = {
  /**
   * A folder with the template's manifests and installed node_modules, one per manifest version,
   * installed on first use. A complete folder is never changed: box overlays use it as their
   * read-only lower (shared-dependencies.ts), so removing one is only safe once no box records it.
   */
  prepare: (packType: string, templateDirectory: string) => Promise<string>
}

export function createDependencyCache(input: {
  cacheDir: string
  logger: DevboxLogger
}): DependencyCache {
  const inFlight = new Map<string, Promise<string>>()
  return {
    prepare: async (packType, templateDirectory) => {
      const manifests = await readManifests(templateDirectory)
      const key = createHash('sha256')
        .update(
          `${process.platform}-${process.arch}\n${manifests.packageJson}\n${manifests.lockfile ?? ''}`,
        )
        .digest('hex')
        .slice(0, 16)
      const directory = path.join(input.cacheDir, packType, key)
      if (existsSync(path.join(directory, completeMarker))) return directory
      let pending = inFlight.get(directory)
      if (!pending) {
        pending = install({
          ...input,
          packType,
          templateDirectory,
          directory,
          hasLockfile: manifests.lockfile !== undefined,
        })
        inFlight.set(directory, pending)
        pending.finally(() => inFlight.delete(directory)).catch(() => {})
      }
      return pending
    },
  }
}

async function readManifests(templateDirectory: string) {
  const packageJson = await readFile(path.join(templateDirectory, 'package.json'), 'utf8')
  const lockfile = await readFile(path.join(templateDirectory, 'package-lock.json'), 'utf8').catch(
    () => undefined,
  )
  return { packageJson, lockfile }
}

/**
 * Installs into a fresh folder and renames it into place when complete, so concurrent servers
 * or test workers sharing the cache never see a half-installed node_modules.
 */
async function install(input: {
  packType: string
  templateDirectory: string
  directory: string
  hasLockfile: boolean
  logger: DevboxLogger
}): Promise<string> {
  const startedAt = Date.now()
  const staging = path.join(path.dirname(input.directory), `.install-${randomUUID()}`)
  await mkdir(staging, { recursive: true })
  try {
    await copyFile(
      path.join(input.templateDirectory, 'package.json'),
      path.join(staging, 'package.json'),
    )
    if (input.hasLockfile) {
      await copyFile(
        path.join(input.templateDirectory, 'package-lock.json'),
        path.join(staging, 'package-lock.json'),
      )
    }
    const proxies = Object.fromEntries(
      proxyVariables.flatMap((name) => {
        const value = process.env[name]
        return value ? [[name, value]] : []
      }),
    )
    // `npm install`, not `npm ci`: it follows the lockfile too but tolerates a lockfile written
    // where some platforms' optional packages could not be resolved.
    const result = await runCommand({
      // Under the keeper, so that neither npm nor the install scripts it runs outlive the server.
      command: keptByBoxKeeper([
        'npm',
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ]),
      cwd: staging,
      // The server user's home keeps npm's download cache and .npmrc (registry settings).
      env: boxEnvironment(staging, { HOME: os.homedir(), ...proxies, ...systemNpmConfig() }),
      timeoutSeconds: installTimeoutSeconds,
    })
    if (result.exitCode !== 0) {
      throw new Error(
        `Installing the dependencies of the ${input.packType} template failed (exit ${result.exitCode}${result.timedOut ? ', timed out' : ''}):\n${cutText(result.output, 4000, 'end')}`,
      )
    }
    // A template without dependencies gets no node_modules from npm; workspaces still copy one.
    await mkdir(path.join(staging, 'node_modules'), { recursive: true })
    await writeFile(path.join(staging, completeMarker), new Date().toISOString())
    try {
      await rename(staging, input.directory)
    } catch (error) {
      // Another process finished the same install first; its copy is as good as ours.
      if (!existsSync(path.join(input.directory, completeMarker))) throw error
      await rm(staging, { recursive: true, force: true })
    }
    input.logger.info('Prepared the dependency cache', {
      packType: input.packType,
      directory: input.directory,
      durationMs: Date.now() - startedAt,
    })
    return input.directory
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    throw error
  }
}
