import { mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises'
import path from 'node:path'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { type AppServerInstance, AppServerStartError } from './app-servers/app-server-instance.ts'
import { isFullStackDeploy } from './app-servers/full-stack-deploy.ts'
import { createDeployId, deployIdPattern, isValidAppId } from './deploy-id.ts'
import { type Devbox, WorkspacePathError, type WorkspacePathErrorCode } from './devbox-driver.ts'

const defaultKeptDeploys = 5
const keptOutputCharacters = 4000
/** How a box says `dist/` is not a folder it can copy out (no folder, a file, a link). */
const missingFolder: WorkspacePathErrorCode[] = ['not-found', 'not-a-directory', 'symbolic-link']

export type DeployResult = {
  deployId: string
  /** The folder now served as `{deploysDir}/{appId}/current`. */
  directory: string
  output: string
  durationMs: number
}

/** A build that failed or timed out; `message` ends with the tail of the build output. */
export class DeployBuildError extends Error {
  override name = 'DeployBuildError'
  readonly output: string

  constructor(message: string, output: string) {
    super(message)
    this.output = output
  }
}

/** What a deploy needs of the production servers (app-servers/app-server-manager.ts). */
export type DeployAppServers = {
  startCandidate: (appId: string, deployId: string) => Promise<AppServerInstance>
  switchTo: (appId: string, instance: AppServerInstance | undefined) => Promise<void>
}

/**
 * Builds in the box and copies `dist/` to its deploy folder, then renames a new `current` link over
 * the old, so requests see one whole deploy. A failed build, or a server (`server/index.js`) that
 * does not get healthy, leaves the old deploy serving.
 */
export async function buildDeploy(input: {
  box: Devbox
  deploysDir: string
  appId: string
  timeoutSeconds: number
  signal?: AbortSignal
  onOutput?: (chunk: string) => void
  /** Older deploy folders kept besides the current one. */
  keep?: number
  /** Starts and switches production servers; without it a server in the build is not run. */
  appServers?: DeployAppServers
}): Promise<DeployResult> {
  if (!isValidAppId(input.appId)) throw new Error(`Invalid app id ${JSON.stringify(input.appId)}`)
  const startedAt = Date.now()
  const build = await input.box.exec('npm run build', {
    timeoutSeconds: input.timeoutSeconds,
    signal: input.signal,
    onOutput: input.onOutput,
  })
  const tail = cutText(build.output, keptOutputCharacters, 'end')
  if (build.timedOut) {
    throw new DeployBuildError(
      `The build did not finish within ${input.timeoutSeconds} s:\n${tail}`,
      build.output,
    )
  }
  if (build.aborted) throw new DeployBuildError('The build was cancelled', build.output)
  if (build.exitCode !== 0) {
    throw new DeployBuildError(
      `The build failed (exit code ${build.exitCode}):\n${tail}`,
      build.output,
    )
  }

  const appDirectory = path.join(input.deploysDir, input.appId)
  const deployId = createDeployId()
  const staging = path.join(appDirectory, `.staging-${deployId}`)
  const directory = path.join(appDirectory, deployId)
  await mkdir(appDirectory, { recursive: true })
  try {
    await input.box.copyFolderOut('dist', staging)
    await rename(staging, directory)
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    if (error instanceof WorkspacePathError && missingFolder.includes(error.code)) {
      throw new DeployBuildError('The build succeeded but wrote no dist/ folder', build.output)
    }
    throw error
  }
  const server = input.appServers
    ? await startServer(input.appServers, input.appId, deployId, directory)
    : undefined
  const newLink = path.join(appDirectory, `.current-${deployId}`)
  try {
    await symlink(deployId, newLink)
    await rename(newLink, path.join(appDirectory, 'current'))
  } catch (error) {
    // `current` did not move: the old deploy and its server keep serving.
    await server?.stop()
    throw error
  }
  await input.appServers?.switchTo(input.appId, server)
  await pruneDeploys(appDirectory, deployId, input.keep ?? defaultKeptDeploys)
  return { deployId, directory, output: build.output, durationMs: Date.now() - startedAt }
}

/** The new deploy's server, answering its health route; undefined for a static build. */
async function startServer(
  appServers: DeployAppServers,
  appId: string,
  deployId: string,
  directory: string,
): Promise<AppServerInstance | undefined> {
  if (!(await isFullStackDeploy(directory))) return undefined
  try {
    return await appServers.startCandidate(appId, deployId)
  } catch (error) {
    await rm(directory, { recursive: true, force: true })
    if (error instanceof AppServerStartError) {
      throw new DeployBuildError(`The server did not start: ${error.message}`, error.output)
    }
    throw error
  }
}

/** The deploy id `current` points at, if any. */
export async function currentDeployId(
  deploysDir: string,
  appId: string,
): Promise<string | undefined> {
  if (!isValidAppId(appId)) return undefined
  const target = await readlink(path.join(deploysDir, appId, 'current')).catch(() => undefined)
  return target && deployIdPattern.test(target) ? target : undefined
}

async function pruneDeploys(appDirectory: string, currentId: string, keep: number) {
  const deployIds = (await readdir(appDirectory))
    .filter((name) => deployIdPattern.test(name) && name !== currentId)
    .sort()
  const stale = deployIds.slice(0, Math.max(0, deployIds.length - keep))
  await Promise.all(
    stale.map((name) => rm(path.join(appDirectory, name), { recursive: true, force: true })),
  )
}
