import { setTimeout as delay } from 'node:timers/promises'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { devServerAnswers } from '../../dev-server-request.ts'
import type { Devbox, DevServerStatus, DevServerTarget } from '../../devbox-driver.ts'
import type { BoxRunInput } from './box-agent-client.ts'

type RunInPod = (input: BoxRunInput) => Promise<number>

const startTimeoutMs = 60_000

/**
 * Started in a session of its own inside the pod, its group id in SPROUT_RUN_DIR (the pod's
 * scratch /tmp), its output in a log beside it; started again only when that group is gone.
 */
const startScript = [
  'run="$SPROUT_RUN_DIR"; mkdir -p "$run"',
  'if [ -s "$run/dev-server.pid" ] && kill -0 "-$(cat "$run/dev-server.pid")" 2>/dev/null; then exit 0; fi',
  `setsid sh -c 'echo $$ > "$1/dev-server.pid"; exec npm run dev' sprout-dev-server "$run" > "$run/dev-server.log" 2>&1 < /dev/null &`,
].join('\n')

/** SIGTERM to the server's group, SIGKILL after 5 s (dash's kill takes no `--`). */
const stopScript = [
  'file="$SPROUT_RUN_DIR/dev-server.pid"; [ -s "$file" ] || exit 0; group=$(cat "$file")',
  'kill -TERM "-$group" 2>/dev/null; tries=0',
  'while kill -0 "-$group" 2>/dev/null && [ $tries -lt 50 ]; do sleep 0.1; tries=$((tries+1)); done',
  'kill -KILL "-$group" 2>/dev/null; rm -f "$file"',
].join('\n')

const logsScript = 'tail -c 20000 "$SPROUT_RUN_DIR/dev-server.log" 2>/dev/null; true'

/**
 * The dev server of a pod box, driven through the agent's commands. `address` is where Sprout reaches the pod's
 * dev-server port (the pod's IP inside the cluster); undefined while the pod is not running.
 */
export function createBoxDevServer(input: {
  id: string
  run: RunInPod
  address: () => DevServerTarget | undefined
  /** The dev server's address from inside the pod (its own IP: the server listens on HOST). */
  urlInside: () => string | undefined
}) {
  let status: DevServerStatus = 'stopped'
  let environment: Record<string, string> = {}
  let logs = ''
  let starting: Promise<void> | undefined

  const runScript = async (script: string, env: Record<string, string> = {}) => {
    const chunks: Buffer[] = []
    const pairs = Object.entries(env).map(([name, value]) => `${name}=${value}`)
    const exitCode = await input.run({
      command: ['env', ...pairs, 'sh', '-c', script],
      onStdout: (data) => chunks.push(data),
      onStderr: (data) => chunks.push(data),
    })
    return { exitCode, output: Buffer.concat(chunks).toString('utf8') }
  }

  const launch = async () => {
    status = 'starting'
    const started = await runScript(startScript, environment)
    if (started.exitCode !== 0)
      throw new Error(`The dev server of box ${input.id} did not start:\n${started.output}`)
    const deadline = Date.now() + startTimeoutMs
    while (status === 'starting') {
      if (await devServerAnswers(input.address())) {
        status = 'running'
        return
      }
      if (Date.now() > deadline) break
      await delay(100)
    }
    if (status !== 'starting') return
    status = 'crashed'
    logs = (await runScript(logsScript)).output
    throw new Error(
      `The dev server of box ${input.id} did not start:\n${cutText(logs, 2000, 'end')}`,
    )
  }

  const devServer: Devbox['devServer'] = {
    start: async () => {
      if (status === 'running') return
      starting ??= launch().finally(() => {
        starting = undefined
      })
      return starting
    },
    stop: async () => {
      status = 'stopped'
      await runScript(stopScript)
    },
    status: () => status,
    target: () => (status === 'running' ? input.address() : undefined),
    urlInside: () => (status === 'running' ? input.urlInside() : undefined),
    restarts: () => 0,
    logs: () => logs,
    setEnvironment: async (env) => {
      const same = JSON.stringify(env) === JSON.stringify(environment)
      environment = { ...env }
      if (same || status !== 'running') return
      await devServer.stop()
      await devServer.start()
    },
  }
  return {
    devServer,
    /** The pod was deleted (suspend, shutdown): its dev server with it. */
    forget: () => {
      status = 'stopped'
    },
    /** A pod made anew (first use, or the last one evicted) runs no dev server yet. */
    podReplaced: () => {
      if (status === 'running' || status === 'crashed') status = 'stopped'
    },
  }
}
