import { cutText } from '@sprout/protocol/text/cut-text.ts'
import type { ExecOptions, ExecResult } from '../../../devbox-driver.ts'

const checkpointTimeoutSeconds = 120

/**
 * Commits every change. It runs through the box's exec (in the sandbox) because the
 * repository's config and hooks are writable by app code and git would otherwise run them
 * with the server's rights.
 */
export async function checkpointWorkspace(
  exec: (command: string, options: ExecOptions) => Promise<ExecResult>,
  message: string,
): Promise<string | undefined> {
  const script = [
    'set -e',
    'git add -A',
    'if git diff --cached --quiet; then exit 0; fi',
    'git -c core.hooksPath=/dev/null commit -q --no-verify -m "$SPROUT_CHECKPOINT_MESSAGE"',
    'git rev-parse HEAD',
  ].join('\n')
  const result = await exec(script, {
    timeoutSeconds: checkpointTimeoutSeconds,
    env: { SPROUT_CHECKPOINT_MESSAGE: message.trim() || 'Checkpoint' },
  })
  if (result.exitCode !== 0) {
    throw new Error(
      `Checkpoint failed (exit ${result.exitCode}):\n${cutText(result.output, 2000, 'end')}`,
    )
  }
  const commitId = result.output.trim().split('\n').at(-1)
  return commitId && /^[0-9a-f]{40,64}$/.test(commitId) ? commitId : undefined
}
