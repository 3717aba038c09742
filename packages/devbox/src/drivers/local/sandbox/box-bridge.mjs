// A box's two doors inside its network namespace (docs/architecture/devbox.md "Network"): egress
// proxy socket ↔ 127.0.0.1:{proxyPort}, dev server ↔ a server-only unix socket. Plain JavaScript:
// without type stripping a box pays ~10 MB instead of ~24 MB (docs/performance.md).
import { chmodSync, rmSync } from 'node:fs'
import net from 'node:net'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    'egress-socket': { type: 'string' },
    'proxy-port': { type: 'string' },
    'dev-socket': { type: 'string' },
    'dev-port': { type: 'string' },
  },
})
const egressSocket = values['egress-socket']
const devSocket = values['dev-socket']
const proxyPort = Number(values['proxy-port'])
const devPort = Number(values['dev-port'])
if (!egressSocket || !devSocket || !proxyPort || !devPort) {
  console.error('box-bridge needs --egress-socket, --proxy-port, --dev-socket and --dev-port')
  process.exit(2)
}

function forward(from, to) {
  from.on('data', (data) => {
    // Back-pressure: a slow reader pauses the writer instead of growing a buffer here.
    if (!to.write(data)) {
      from.pause()
      to.once('drain', () => from.resume())
    }
  })
  from.on('end', () => to.end())
}

function joinSockets(inbound, connectOutbound) {
  const outbound = connectOutbound()
  // Small request and answer writes go out at once; Nagle's delay would add to every preview request.
  if (typeof inbound.setNoDelay === 'function') inbound.setNoDelay(true)
  if (typeof outbound.setNoDelay === 'function') outbound.setNoDelay(true)
  forward(inbound, outbound)
  forward(outbound, inbound)
  inbound.on('error', () => outbound.destroy())
  outbound.on('error', () => inbound.destroy())
  inbound.on('close', () => outbound.destroy())
  outbound.on('close', () => inbound.destroy())
}

const proxyDoor = net.createServer((socket) =>
  joinSockets(socket, () => net.connect({ path: egressSocket })),
)
const devDoor = net.createServer((socket) =>
  joinSockets(socket, () => net.connect({ host: '127.0.0.1', port: devPort })),
)

rmSync(devSocket, { force: true })
let listening = 0
const ready = () => {
  listening += 1
  if (listening === 2) process.stdout.write(`ready ${process.pid}\n`)
}
proxyDoor.listen({ host: '127.0.0.1', port: proxyPort }, ready)
devDoor.listen({ path: devSocket }, () => {
  chmodSync(devSocket, 0o600)
  ready()
})
for (const server of [proxyDoor, devDoor]) {
  server.on('error', (error) => {
    console.error(`box-bridge: ${error.message}`)
    process.exit(1)
  })
}
// The server holds our stdin open; when it goes away, so do we.
process.stdin.on('end', () => process.exit(0))
process.stdin.on('error', () => process.exit(0))
process.stdin.resume()
