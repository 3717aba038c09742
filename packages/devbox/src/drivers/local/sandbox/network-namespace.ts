import { type ChildProcess, spawn } from 'node:child_process'
import { statSync } from 'node:fs'
import path from 'node:path'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { DevboxLogger } from '../../../logger.ts'

const bridgeScript = path.join(import.meta.dirname, 'box-bridge.mjs')
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
 * A box's network namespace (loopback only) with the bridge in it, started by bubblewrap with only
 * `--unshare-net` as the server's user, so the bridge reaches host unix sockets. The namespace
 * lives as long as the bridge; box processes join it with `nsenter`.
 */
export async function startBoxNetwork(input: {
  bubblewrapPath: string
  boxId: string
  egressSocketPath: string
  devSocketPath: string
  proxyPort: number
  devPort: number
  logger: DevboxLogger
}): Promise<BoxNetwork> {
  const child: ChildProcess = spawn(
    input.bubblewrapPath,
    [
      '--bind',
      '/',
      '/',
      '--dev-bind',
      '/dev',
      '/dev',
      '--unshare-net',
      '--die-with-parent',
      '--',
      process.execPath,
      bridgeScript,
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
