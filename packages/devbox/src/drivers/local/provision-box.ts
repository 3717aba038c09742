import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, cp, mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import type { PackType } from '../../devbox-driver.ts'
import { attachBox } from './attach-box.ts'
import {
  diskTargets,
  layersOf,
  templateDirectoryOf,
  withLayers,
  workspacePathOf,
} from './box-locations.ts'
import { destroyBox } from './destroy-box.ts'
import { initializeRepository } from './initialize-repository.ts'
import type { LocalDevbox, LocalDriverState } from './local-driver-state.ts'
import type { DependencyLayers } from './workspace/shared-dependencies.ts'

const runFile = promisify(execFile)
/** Template entries never copied into a workspace: they are installed or generated there. */
const templateSkips = new Set(['node_modules', 'dist', '.git'])

/** A new box from its pack type's template; each phase's duration goes to the log. */
export async function provisionBox(
  state: LocalDriverState,
  packType: PackType,
  provisionOptions: { id?: string } = {},
): Promise<LocalDevbox> {
  const { sandbox, dependencies } = state
  const startedAt = Date.now()
  const timings: Record<string, number> = {}
  let phaseStartedAt = startedAt
  const endPhase = (name: string) => {
    timings[name] = Date.now() - phaseStartedAt
    phaseStartedAt = Date.now()
  }
  const id = provisionOptions.id ?? crypto.randomUUID()
  const workspacePath = workspacePathOf(state, id)
  const templateDirectory = templateDirectoryOf(state, packType)
  const cacheDirectory = await state.cache.prepare(packType, templateDirectory)
  endPhase('dependenciesMs')
  await mkdir(state.workspacesDir, { recursive: true })
  try {
    await mkdir(workspacePath)
  } catch (error) {
    throw new Error(`Dev box ${id} already exists`, { cause: error })
  }
  try {
    const madeDisk = await state.disks.create(id, sandbox.limits.diskMb, diskTargets(state, id))
    const layers = layersOf(state, id, madeDisk)
    const shared = dependencies.enabled
    const disk = shared ? withLayers(state, id, madeDisk) : madeDisk
    endPhase('diskMs')
    await copyTemplate(templateDirectory, cacheDirectory, workspacePath)
    // Shared: an empty mount point now, the overlay once the workspace has its owner.
    if (shared) await mkdir(path.join(workspacePath, 'node_modules'))
    else await copyDependencies(cacheDirectory, workspacePath)
    endPhase('copyMs')
    await initializeRepository(workspacePath, packType)
    endPhase('gitMs')
    const { box, owner } = await attachBox(state, id, packType, disk)
    if (shared) {
      await shareDependencies(state, { id, layers, cacheDirectory, workspacePath, owner })
      endPhase('mountMs')
    }
    await box.devServer.start()
    endPhase('devServerMs')
    state.logger.info('Provisioned dev box', {
      id,
      packType,
      durationMs: Date.now() - startedAt,
      ...timings,
    })
    return box
  } catch (error) {
    await destroyBox(state, id).catch(() => {})
    throw error
  }
}

async function copyTemplate(
  templateDirectory: string,
  cacheDirectory: string,
  workspacePath: string,
) {
  await cp(templateDirectory, workspacePath, {
    recursive: true,
    filter: (source) =>
      !templateSkips.has(path.relative(templateDirectory, source).split(path.sep)[0] ?? ''),
  })
  if (!existsSync(path.join(workspacePath, 'package-lock.json'))) {
    await copyFile(
      path.join(cacheDirectory, 'package-lock.json'),
      path.join(workspacePath, 'package-lock.json'),
    )
  }
}

function copyDependencies(cacheDirectory: string, workspacePath: string) {
  // A real copy, not hard links: app code may write into node_modules, and a shared
  // inode would let one box change another box's dependencies.
  return runFile('cp', [
    '-a',
    '--reflink=auto',
    path.join(cacheDirectory, 'node_modules'),
    workspacePath,
  ])
}

/** Mounts the prepared cache as the box's node_modules; a copy when that fails. */
async function shareDependencies(
  state: LocalDriverState,
  input: {
    id: string
    layers: DependencyLayers
    cacheDirectory: string
    workspacePath: string
    owner: { uid: number; gid: number } | undefined
  },
) {
  const { dependencies } = state
  const { id, layers, cacheDirectory, workspacePath, owner } = input
  const target = path.join(workspacePath, 'node_modules')
  await dependencies
    .mount({ layers, cacheFolder: cacheDirectory, target, owner })
    .catch(async (error: Error) => {
      state.logger.warn('Could not share the dependencies with a new box; copying them', {
        id,
        error: error.message,
      })
      await dependencies.remove(target, layers.folder)
      await rm(target, { recursive: true, force: true })
      await copyDependencies(cacheDirectory, workspacePath)
      if (owner) {
        await runFile('chown', ['-R', '--no-dereference', `${owner.uid}:${owner.gid}`, target])
      }
    })
}
