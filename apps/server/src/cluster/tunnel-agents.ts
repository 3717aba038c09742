import http from 'node:http'
import net from 'node:net'
import type { Duplex } from 'node:stream'
import { TUNNEL_PROTOCOL, tunnelPath } from './dev-server-tunnel.ts'
import { RELAY_HEADER, signRelay } from './relay-signature.ts'

/** The owner refused the tunnel (its status), or answered something that is not one. */
export class TunnelRefusedError extends Error {
  readonly status: number

  constructor(status: number) {
    super(`The owner refused a dev server tunnel (${status})`)
    this.status = status
  }
}

/** An owner's answer to the upgrade is a status line and three headers; more is not one. */
const answerHeadMaxBytes = 4096
/** Applications with tunnels kept; past it the oldest one's are closed. */
const agentsKept = 1000

type Kept = { ownerUrl: string; agent: http.Agent }

/**
 * The other end of dev server tunnels (docs/decisions/042-dev-server-tunnel.md): per application,
 * a kept-alive agent whose connections are tunnels to the owner's box, so a preview module goes
 * from this instance to the dev server with no second HTTP hop.
 */
export function createTunnelAgents(options: { key: Buffer; instanceId: string }) {
  const kept = new Map<string, Kept>()

  const open = (ownerUrl: string, applicationId: string) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 })
    agent.createConnection = (_options, callback) => {
      openTunnel(ownerUrl, applicationId, options).then(
        (socket) => callback?.(null, socket),
        (error: Error) => callback?.(error, undefined as unknown as Duplex),
      )
      return undefined
    }
    return agent
  }

  return {
    /** The agent for an application's dev server at its owner; a new owner's replaces the last's. */
    agentFor: (ownerUrl: string, applicationId: string): http.Agent => {
      const known = kept.get(applicationId)
      if (known?.ownerUrl === ownerUrl) return known.agent
      // A moved box's old tunnels end with the old owner's dev server; answers under way finish.
      kept.delete(applicationId)
      if (kept.size >= agentsKept) {
        const [oldest] = kept.keys()
        if (oldest) kept.delete(oldest)
      }
      const agent = open(ownerUrl, applicationId)
      kept.set(applicationId, { ownerUrl, agent })
      return agent
    },
    close: () => {
      for (const { agent } of kept.values()) agent.destroy()
      kept.clear()
    },
  }
}

/** A signed upgrade to the owner; the socket once it answered 101, else a TunnelRefusedError. */
function openTunnel(
  ownerUrl: string,
  applicationId: string,
  options: { key: Buffer; instanceId: string },
): Promise<net.Socket> {
  const owner = new URL(ownerUrl)
  const pathname = tunnelPath(applicationId)
  const signature = signRelay(options.key, {
    method: 'GET',
    path: pathname,
    instanceId: options.instanceId,
    client: '',
  })
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: owner.hostname, port: Number(owner.port || 80) })
    socket.setNoDelay(true)
    let received = Buffer.alloc(0)
    const fail = (error: Error) => {
      socket.destroy()
      reject(error)
    }
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const end = received.indexOf('\r\n\r\n')
      if (end === -1) {
        if (received.length > answerHeadMaxBytes) fail(new TunnelRefusedError(502))
        return
      }
      socket.off('data', onData)
      socket.off('error', fail)
      socket.off('end', onEnd)
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(received.toString('latin1'))?.[1] ?? 502)
      if (status !== 101) return fail(new TunnelRefusedError(status))
      const rest = received.subarray(end + 4)
      if (rest.length > 0) socket.unshift(rest)
      resolve(socket)
    }
    const onEnd = () => fail(new TunnelRefusedError(502))
    socket.on('data', onData)
    socket.on('error', fail)
    socket.on('end', onEnd)
    socket.write(
      `GET ${pathname} HTTP/1.1\r\nhost: ${owner.host}\r\nconnection: Upgrade\r\nupgrade: ${TUNNEL_PROTOCOL}\r\n${RELAY_HEADER}: ${signature}\r\n\r\n`,
    )
  })
}
