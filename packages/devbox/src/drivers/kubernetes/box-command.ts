import { createOutputCollector } from '../../command-output.ts'
import type { ExecOptions, ExecResult, WorkspacePathErrorCode } from '../../devbox-driver.ts'
import { WorkspacePathError } from '../../devbox-driver.ts'
import { workspacePathComponents } from '../local/workspace/workspace-path.ts'
import type { BoxRunInput } from './box-agent-client.ts'

const maxTimeoutSeconds = 60 * 60
const environmentName = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * Run in the pod with the working directory and the command as $1 and $2. The directory must
 * stay inside the workspace once links are resolved; the command runs in a session of its own
 * whose id goes out on stderr, so a timeout or abort kills its whole process group through
 * another run, and whatever it left running is killed when it ends, as local boxes do
 * (run-command.ts). Its stdout and stderr both go to stdout; stderr carries only these lines.
 */
const wrapper = [
  'root=$(pwd -P)',
  'cd -P -- "$1" 2>/dev/null || { echo "sprout:refused not-a-directory" >&2; exit 0; }',
  'case "$(pwd -P)/" in "$root"/*) ;; *) echo "sprout:refused outside-workspace" >&2; exit 0 ;; esac',
  `exec setsid -w bash -c 'echo "sprout:group $$" >&2; bash -lc "$1" 2>&1 </dev/null; echo "sprout:exit $?" >&2; kill -KILL 0' sprout-command "$2"`,
].join('\n')

type RunInPod = (input: BoxRunInput) => Promise<number>

/** `box.exec` of a pod: `bash -lc command` in the workspace, as ExecOptions describe it. */
export function createBoxCommand(run: RunInPod, stopAll: () => AbortSignal) {
  return async (command: string, options: ExecOptions): Promise<ExecResult> => {
    if (!(options.timeoutSeconds > 0) || options.timeoutSeconds > maxTimeoutSeconds) {
      throw new Error(
        `timeoutSeconds must be between 0 and ${maxTimeoutSeconds}, got ${options.timeoutSeconds}`,
      )
    }
    const directory = workspacePathComponents(options.cwd ?? '.').join('/') || '.'
    const environment = Object.entries(options.env ?? {}).map(([name, value]) => {
      if (!environmentName.test(name))
        throw new Error(`${JSON.stringify(name)} is not a variable name`)
      return `${name}=${value}`
    })
    const startedAt = Date.now()
    const signal = AbortSignal.any(
      [options.signal, stopAll()].filter((each): each is AbortSignal => each !== undefined),
    )
    if (signal.aborted) {
      return {
        exitCode: null,
        output: '',
        truncated: false,
        timedOut: false,
        aborted: true,
        durationMs: 0,
      }
    }

    const collector = createOutputCollector(options)
    const control = createControlReader()
    let timedOut = false
    let aborted = false
    const kill = () => {
      void control.group.then((group) =>
        run({ command: ['kill', '-KILL', '--', `-${group}`], onStdout: () => {} }).catch(() => {}),
      )
    }
    const timer = setTimeout(() => {
      timedOut = true
      kill()
    }, options.timeoutSeconds * 1000)
    const onAbort = () => {
      aborted = true
      kill()
    }
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      const podExitCode = await run({
        command: ['env', ...environment, 'sh', '-c', wrapper, 'sprout-exec', directory, command],
        onStdout: collector.write,
        onStderr: control.write,
      })
      const refused = control.refused()
      if (refused) {
        throw new WorkspacePathError(
          refused === 'not-a-directory'
            ? `Working directory ${JSON.stringify(options.cwd)} is not a folder`
            : `Working directory ${JSON.stringify(options.cwd)} is outside the workspace`,
          refused,
        )
      }
      const { output, truncated } = collector.end()
      return {
        exitCode: timedOut || aborted ? null : (control.exitCode() ?? podExitCode),
        output,
        truncated,
        timedOut,
        aborted,
        durationMs: Date.now() - startedAt,
      }
    } finally {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
    }
  }
}

/** The wrapper's lines on stderr: the command's process group, its exit code, a refusal. */
function createControlReader() {
  let pending = ''
  let exitCode: number | undefined
  let refused: WorkspacePathErrorCode | undefined
  let resolveGroup: (group: number) => void = () => {}
  const group = new Promise<number>((resolve) => {
    resolveGroup = resolve
  })
  return {
    group,
    write: (data: Buffer) => {
      pending += data.toString('utf8')
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) {
        const [key, value = ''] = line.replace(/^sprout:/, '').split(' ')
        if (key === 'group' && /^\d+$/.test(value)) resolveGroup(Number(value))
        else if (key === 'exit' && /^\d+$/.test(value)) exitCode = Number(value)
        else if (key === 'refused') refused = value as WorkspacePathErrorCode
      }
    },
    exitCode: () => exitCode,
    refused: () => refused,
  }
}
