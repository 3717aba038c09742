import type { V1Pod } from '@kubernetes/client-node'
import type { Devbox, DevServerTarget, PackType } from '../../devbox-driver.ts'
import { checkpointWorkspace } from '../local/workspace/checkpoint.ts'
import { createAgentClient } from './box-agent-client.ts'
import { createBoxCommand } from './box-command.ts'
import { createBoxDevServer } from './box-dev-server.ts'
import { createBoxFiles } from './box-files.ts'
import { createBoxFolderOut } from './box-folder-out.ts'
import { workspaceMountPath } from './box-manifests.ts'
import { type BoxPodAccess, createBoxPod } from './box-pod.ts'

/** Where Sprout reaches a pod's port: its address, or a socket of Sprout's own (port-forward). */
export type PodAddress = (pod: V1Pod, port: number) => DevServerTarget | undefined

/** The pod's own IP and port: how Sprout reaches a box from inside the cluster. */
export const podAddress: PodAddress = (pod, port) =>
  pod.status?.podIP ? { host: pod.status.podIP, port } : undefined

/** The template copied into an empty workspace claim and committed, as local boxes start. */
const initializeScript = [
  'set -e',
  '[ -e .git ] && exit 0',
  'cp -a "$SPROUT_TEMPLATES/$1/." .',
  'git init -q -b main',
  'git config user.name Sprout',
  'git config user.email sprout@localhost',
  'git add -A',
  'git -c core.hooksPath=/dev/null commit -q -m "Start from the $1 template"',
].join('\n')

/** One box of the kubernetes driver: its pod (made on use), commands, files and dev server. */
export function createKubernetesBox(
  access: BoxPodAccess,
  options: { id: string; packType: PackType; address: PodAddress },
) {
  const { id, packType } = options
  let stopAll = new AbortController()
  const pod = createBoxPod(access, id, () => dev.podReplaced())
  const agent = createAgentClient({
    token: access.agentToken(id),
    address: async () => {
      const address = options.address(await pod.known(), access.settings.agentPort)
      if (!address) throw new Error(`The pod of box ${id} has no address yet`)
      return address
    },
    unreachable: pod.forget,
  })
  const dev = createBoxDevServer({
    id,
    run: agent.run,
    address: () => {
      const current = pod.current()
      return current && options.address(current, access.settings.devServerPort)
    },
    urlInside: () => {
      const ip = pod.current()?.status?.podIP
      return ip ? `http://${ip}:${access.settings.devServerPort}` : undefined
    },
  })
  const exec = createBoxCommand(agent.run, () => stopAll.signal)
  const stopCommands = () => {
    stopAll.abort()
    stopAll = new AbortController()
  }

  const box: Devbox = {
    id,
    packType,
    // A path inside the pod, not on Sprout's disk (docs/architecture/scale-out.md).
    workspacePath: workspaceMountPath,
    files: createBoxFiles(agent.files),
    copyFolderOut: createBoxFolderOut(agent.pack),
    exec,
    devServer: dev.devServer,
    checkpoint: (message) => checkpointWorkspace(exec, message),
    suspend: async () => {
      stopCommands()
      dev.forget()
      await pod.remove()
      agent.close()
    },
  }

  return {
    box,
    initialize: async () => {
      const output: Buffer[] = []
      const exitCode = await agent.run({
        command: ['sh', '-c', initializeScript, 'sprout-initialize', packType],
        onStdout: (data) => output.push(data),
        onStderr: (data) => output.push(data),
      })
      if (exitCode !== 0) {
        throw new Error(
          `Box ${id} could not start from the ${packType} template:\n${Buffer.concat(output)}`,
        )
      }
    },
    /** Stops its commands and dev server; with `removePod`, its pod too (the claim stays). */
    release: async (removePod: boolean) => {
      stopCommands()
      if (removePod) {
        dev.forget()
        await pod.remove()
        agent.close()
      } else if (pod.current()) {
        await dev.devServer.stop().catch(() => dev.forget())
      }
    },
    removePod: () => pod.remove(),
  }
}
