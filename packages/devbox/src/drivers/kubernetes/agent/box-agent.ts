import {
  agentOneRunVariable,
  agentPort,
  agentPortVariable,
  agentTokenVariable,
} from './agent-protocol.ts'
import { createAgentServer } from './agent-server.ts'

/**
 * The in-box agent's entry (decision 040): a pod's main process, `node box-agent.ts` with the
 * workspace as its working directory. The token leaves the environment before any command runs,
 * so the box's own processes inherit it from nowhere.
 */
const token = process.env[agentTokenVariable] ?? ''
const port = Number(process.env[agentPortVariable] ?? agentPort)
const oneRun = process.env[agentOneRunVariable] === '1'
delete process.env[agentTokenVariable]
delete process.env[agentPortVariable]
delete process.env[agentOneRunVariable]
if (token.length < 16) {
  process.stderr.write(`${agentTokenVariable} must hold the box's token\n`)
  process.exit(1)
}

const server = createAgentServer(process.cwd(), token, {
  // Its answer flushed (or its caller gone) first.
  runEnded: oneRun ? () => setImmediate(() => process.exit(0)) : undefined,
})
server.keepAliveTimeout = 60_000
server.listen(port, '0.0.0.0')
// The pod's end (SIGTERM from the kubelet): stop at once, the commands go with the pod.
process.on('SIGTERM', () => process.exit(0))
process.on('SIGINT', () => process.exit(0))
