import { type ChildProcess, spawn } from 'node:child_process'
import { realpathSync, statSync } from 'node:fs'
import path from 'node:path'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { DevboxLogger } from '../../../logger.ts'
import type { Toolchain } from './box-root.ts'

const bridgeScript = path.join(import.meta.dirname, 'box-bridge.mjs')
/** Where the bridge's script appears in its root: one file, so no host mount comes along. */
const bridgeScriptInside = '/opt/sprout/box-bridge.mjs'
const startTimeoutMs = 10_000

export type BoxNetwork = {
  /** `/proc/{pid}/ns/net` of the box's namespace, for `nsenter --net=`. */
  namespacePath: () => string
  /** The unix socket that reaches the dev server inside the namespace. */
  devSocketPath: string
  /** True while the namespace's holder (the bridge) runs. */
  alive: () => boolean
  stop: () => Promise<void>
}

/**
 * A box's network namespace (loopback only) with the bridge in it, started by bubblewrap with
 * `--unshare-net` as the server's user, so the bridge reaches host unix sockets. Its root is the
 * boxes' allow-listed one (`rootArguments`, box-root.ts) plus the script and the box's run folder:
 * never a bind of the host's `/`, whose copy of every host mount (other boxes' disk images, a
 * stopped Sprout's) would keep them and their loop devices alive for as long as the bridge runs
 * (docs/architecture/devbox.md "Network"). The namespace lives as long as the bridge; box
 * processes join it with `nsenter`.
 */
export async function startBoxNetwork(input: {
  bubblewrapPath: string
  /** The system part of a box's root: /usr, the staged /etc, /dev, /proc, Sprout's Node. */
  rootArguments: string[]
  toolchain: Toolchain
  boxId: string
  egressSocketPath: string
  devSocketPath: string
  proxyPort: number
  devPort: number
  logger: DevboxLogger
}): Promise<BoxNetwork> {
  // Both sockets live in the box's run folder, bound at its host path so they keep their names.
  const socketFolder = path.dirname(input.devSocketPath)
  const child: ChildProcess = spawn(
    input.bubblewrapPath,
    [
      ...input.rootArguments,
      '--ro-bind',
      bridgeScript,
      bridgeScriptInside,
      '--bind',
      socketFolder,
      socketFolder,
      '--unshare-net',
      '--die-with-parent',
      '--',
      nodeInside(input.toolchain),
      bridgeScriptInside,
      '--egress-socket',
      input.egressSocketPath,
      '--proxy-port',
      String(input.proxyPort),
      '--dev-socket',
      input.devSocketPath,
      '--dev-port',
      String(input.devPort),
    ],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      // Not in the server's process group: a Ctrl-C or a SIGTERM to `npm start`'s group leaves
      // the boxes their network while the server stops them; it still dies with the server (its
      // stdin closes, and --die-with-parent).
      detached: true,
    },
  )
  let output = ''
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    output = cutText(output + text, 4000, 'end')
  })
  const bridgePid = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`The network of box ${input.boxId} did not start in time: ${output}`))
    }, startTimeoutMs)
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      const ready = /ready (\d+)/.exec(text)
      if (ready) {
        clearTimeout(timer)
        resolve(Number(ready[1]))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(
        new Error(`The network of box ${input.boxId} could not start (exit ${code}): ${output}`),
      )
    })
  })
  const namespacePath = `/proc/${bridgePid}/ns/net`
  // Checked before each use, so a recycled pid can never put a box into another namespace.
  const namespaceInode = statSync(namespacePath).ino
  let running = true
  child.once('exit', (code, signal) => {
    running = false
    if (code !== 0 && signal !== 'SIGTERM') {
      input.logger.warn('Box network bridge exited', { boxId: input.boxId, code, signal, output })
    }
  })

  const alive = () => {
    if (!running) return false
    try {
      return statSync(namespacePath).ino === namespaceInode
    } catch {
      return false
    }
  }
  return {
    namespacePath: () => namespacePath,
    devSocketPath: input.devSocketPath,
    alive,
    stop: async () => {
      if (!running) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** The server's own Node as the bridge's root shows it (where box-root.ts binds the toolchain). */
function nodeInside(toolchain: Toolchain): string {
  return path.posix.join(toolchain.binInside, path.basename(realpathSync(process.execPath)))
}
