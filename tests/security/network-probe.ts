/**
 * A probe app code could run: for each target, a direct TCP connection, and a request through
 * the box's egress proxy. Written into the box and run with node, it prints one JSON line.
 */
export const networkProbeSource = `
import net from 'node:net'
const targets = JSON.parse(process.argv[2])
const direct = (host, port) => new Promise((resolve) => {
  const socket = net.connect({ host, port, timeout: 1500 })
  socket.once('connect', () => { socket.destroy(); resolve('open') })
  socket.once('timeout', () => { socket.destroy(); resolve('timeout') })
  socket.once('error', (error) => resolve(error.code ?? error.message))
})
const viaProxy = (host, port) => new Promise((resolve) => {
  const socket = net.connect({ host: '127.0.0.1', port: 3128, timeout: 5000 })
  let answer = ''
  socket.once('connect', () => socket.write('CONNECT ' + host + ':' + port + ' HTTP/1.1\\r\\nHost: ' + host + '\\r\\n\\r\\n'))
  socket.on('data', (data) => {
    answer += data
    if (answer.includes('\\r\\n')) { socket.destroy(); resolve(answer.split('\\r\\n')[0] + ' ' + answer.split('\\r\\n\\r\\n')[1]?.trim()) }
  })
  socket.once('timeout', () => { socket.destroy(); resolve('timeout') })
  socket.once('error', (error) => resolve(error.code ?? error.message))
})
const results = {}
for (const [host, port] of targets) {
  results[host + ':' + port] = { direct: await direct(host.replace(/^\\[|\\]$/g, ''), port), proxy: await viaProxy(host, port) }
}
console.log('PROBE' + JSON.stringify(results))
`

export type ProbeResults = Record<string, { direct: string; proxy: string }>

export function parseProbe(output: string): ProbeResults {
  const line = output.split('\n').find((text) => text.startsWith('PROBE{'))
  if (!line) throw new Error(`The probe printed no result:\n${output}`)
  return JSON.parse(line.slice('PROBE'.length)) as ProbeResults
}
