import { ApiException } from '@kubernetes/client-node'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type {
  AppServerInstance,
  StartAppServerInput,
} from '../../app-servers/app-server-instance.ts'
import { serverEntry } from '../../app-servers/full-stack-deploy.ts'
import { createInstanceId } from '../../app-servers/instance-id.ts'
import { trackInstances } from '../../app-servers/track-instances.ts'
import { type StartedAppServer, waitForHealth } from '../../app-servers/wait-for-health.ts'
import type { DevboxLogger } from '../../logger.ts'
import {
  appDataClaim,
  appNetworkPolicy,
  appServerLabel,
  appServerPod,
  appServerPodName,
} from './app-server-manifests.ts'
import { createAgentClient } from './box-agent-client.ts'
import { type BoxPodAccess, createPod, ignoreNotFound } from './box-pod.ts'
import type { PodAddress } from './kubernetes-box.ts'

const keptLogCharacters = 64 * 1024

export type PodAppServerOptions = {
  access: BoxPodAccess
  createPolicy: (body: ReturnType<typeof appNetworkPolicy>) => Promise<unknown>
  address: PodAddress
  /** APPS_DISK_MB: the size of each app's data claim. */
  dataDiskMb: number
  logger: DevboxLogger
}

const ignoreExisting = (error: unknown) => {
  if (!(error instanceof ApiException && error.code === 409)) throw error
}

/**
 * Production servers as pods (docs/decisions/041-production-servers-as-pods.md): each start is a
 * pod of its own from the box image, its deploy unpacked by its agent into an empty folder, the
 * app's data claim at /home/sprout/data; the server runs as the agent's command, so it ends when
 * Sprout ends it, and the pod goes with it. The manager's rules (start before switch, restarts,
 * scale to zero) are the same as for local servers.
 */
export function createPodAppServerStarter(options: PodAppServerOptions) {
  return trackInstances((request) => startPodAppServer(options, request))
}

async function startPodAppServer(
  options: PodAppServerOptions,
  request: StartAppServerInput,
): Promise<AppServerInstance> {
  const { access, address } = options
  const { settings } = access
  const instanceId = createInstanceId(request.appId)
  await deleteEndedServerPods(access)
  await access.api
    .createNamespacedPersistentVolumeClaim({
      namespace: settings.namespace,
      body: appDataClaim(request.appId, settings, options.dataDiskMb),
    })
    .catch(ignoreExisting)
  await options.createPolicy(appNetworkPolicy(request.appId, settings)).catch(ignoreExisting)
  const pod = createPod(access, {
    id: instanceId,
    name: appServerPodName(instanceId),
    manifest: (proxyUrl) =>
      appServerPod({ appId: request.appId, instanceId }, settings, {
        proxyUrl,
        agentToken: access.agentToken(instanceId),
      }),
  })
  const agent = createAgentClient({
    token: access.agentToken(instanceId),
    address: async () => {
      const target = address(await pod.known(), settings.agentPort)
      if (!target) throw new Error(`The pod of ${instanceId} has no address yet`)
      return target
    },
  })
  const serverTarget = () => {
    const current = pod.current()
    return current && address(current, settings.devServerPort)
  }
  // Once, whether the server was stopped or ended by itself (a crash restarts in a new pod).
  let removing: Promise<void> | undefined
  const removePod = () => {
    removing ??= pod
      .remove()
      .catch((error: Error) =>
        options.logger.warn('Could not delete a production server pod', {
          instanceId,
          error: error.message,
        }),
      )
      .finally(() => agent.close())
    return removing
  }

  const startedAt = Date.now()
  let server: StartedAppServer
  try {
    await pod.ensureRunning()
    await agent.unpack(request.deployPath)
    server = runServer(agent, request, removePod)
  } catch (error) {
    await removePod()
    throw error
  }
  await waitForHealth(server, serverTarget(), request.healthTimeoutMs)
  options.logger.info('Production server started', {
    appId: request.appId,
    deployId: request.deployId,
    instanceId,
    durationMs: Date.now() - startedAt,
  })
  return {
    ...server,
    id: instanceId,
    appId: request.appId,
    deployId: request.deployId,
    target: () => {
      const target = serverTarget()
      if (!target) throw new Error(`The production server ${instanceId} has no address`)
      return target
    },
    processGroupId: () => undefined,
  }
}

/**
 * Pods whose server ended while no instance watched it (the one that started it died): their
 * agent exited with it and they stay, Succeeded or Failed, until deleted here, at the next start.
 */
async function deleteEndedServerPods({ api, settings }: BoxPodAccess): Promise<void> {
  const { items } = await api.listNamespacedPod({
    namespace: settings.namespace,
    labelSelector: `app.kubernetes.io/name=${appServerLabel}`,
  })
  const ended = items.filter(
    (pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed',
  )
  await Promise.all(
    ended.map((pod) =>
      api
        .deleteNamespacedPod({ namespace: settings.namespace, name: pod.metadata?.name ?? '' })
        .catch(ignoreNotFound),
    ),
  )
}

/**
 * `node server/index.js` as the agent's command, the app's secrets in its environment only; its
 * output kept (64 KB) and passed on. Its pod is removed once it ended, by itself or by `stop`
 * (the agent kills the command's group once its caller is gone).
 */
function runServer(
  agent: ReturnType<typeof createAgentClient>,
  request: StartAppServerInput,
  removePod: () => Promise<void>,
): StartedAppServer {
  let logs = ''
  const appendLog = (data: Buffer) => {
    const text = data.toString('utf8')
    logs = cutText(logs + text, keptLogCharacters, 'end')
    request.onOutput?.(text)
  }
  const ending = new AbortController()
  let isRunning = true
  const exited = agent
    .run({
      command: ['node', serverEntry],
      env: request.env,
      signal: ending.signal,
      onStdout: appendLog,
      onStderr: appendLog,
    })
    .then(
      (code) => ({ code, signal: null }),
      (error: Error) => {
        appendLog(Buffer.from(`\n${error.message}\n`))
        return { code: null, signal: null }
      },
    )
    .finally(() => {
      isRunning = false
      void removePod()
    })
  let stopping: Promise<void> | undefined
  return {
    logs: () => logs,
    running: () => isRunning,
    exited,
    stop: () => {
      stopping ??= (async () => {
        ending.abort()
        await exited
        await removePod()
      })()
      return stopping
    },
  }
}
