import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { VersionFileChange } from '@sprout/protocol/api/versions.ts'

/** Commands that run git in the box: app code can write the repository's config and hooks. */
export type GitBox = Pick<Devbox, 'exec'>

const commitPattern = /^[0-9a-f]{40,64}$/
const separator = '--sprout-numstat--'
const gitTimeoutSeconds = 60

/** Git's options that keep app-written config from changing what a diff prints. */
export const plainDiff = 'git -c core.quotepath=off diff --no-color --no-ext-diff --no-textconv -M'

/** The shell lines setting $p to the commit's parent, or the empty tree for the first commit. */
export const parentOf = [
  'c="$SPROUT_COMMIT"',
  'p=$(git rev-parse -q --verify "$c^" || git hash-object -t tree /dev/null)',
].join('\n')

export function checkedCommit(commitId: string): string {
  if (!commitPattern.test(commitId)) throw new Error(`Not a commit id: ${commitId}`)
  return commitId
}

/** Runs git in the box; its exit code other than 0 is an error with the output's tail. */
export async function gitInBox(
  box: GitBox,
  script: string,
  env: Record<string, string>,
  outputLimitBytes = 4 * 1024 * 1024,
): Promise<string> {
  const result = await box.exec(['set -e', script].join('\n'), {
    timeoutSeconds: gitTimeoutSeconds,
    env,
    outputLimitBytes,
  })
  if (result.exitCode !== 0) {
    throw new Error(`git failed (exit ${result.exitCode}): ${result.output.slice(-2000)}`)
  }
  return result.output
}

function statusOf(letter: string): VersionFileChange['status'] {
  if (letter.startsWith('A')) return 'added'
  if (letter.startsWith('D')) return 'deleted'
  if (letter.startsWith('R')) return 'renamed'
  return 'modified'
}

/** `--name-status -z` then `--numstat -z` (same order): one change per file. */
export function parseFileChanges(output: string): VersionFileChange[] {
  const [nameStatus = '', numstat = ''] = output.split(`\0${separator}\0`)
  const names = nameStatus.split('\0').filter((token) => token !== '')
  const changes: VersionFileChange[] = []
  for (let index = 0; index < names.length; ) {
    const letter = names[index] ?? ''
    const renamed = letter.startsWith('R') || letter.startsWith('C')
    const first = names[index + 1] ?? ''
    const second = renamed ? (names[index + 2] ?? '') : undefined
    index += renamed ? 3 : 2
    changes.push({
      path: second ?? first,
      added: null,
      removed: null,
      status: statusOf(letter),
      ...(second !== undefined ? { previousPath: first } : {}),
    })
  }
  const counts = numstat.split('\0')
  let change = 0
  for (let index = 0; index < counts.length && change < changes.length; index++) {
    const token = counts[index] ?? ''
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(token)
    if (!match) continue
    const target = changes[change]
    if (target) {
      target.added = match[1] === '-' ? null : Number(match[1])
      target.removed = match[2] === '-' ? null : Number(match[2])
    }
    // A rename's line has an empty path, followed by the old and new paths.
    if (match[3] === '') index += 2
    change++
  }
  return changes
}

/** The files a commit changed against its parent, computed by git in the box. */
export async function changedFiles(box: GitBox, commitId: string): Promise<VersionFileChange[]> {
  const script = [
    parentOf,
    `${plainDiff} --name-status -z "$p" "$c"`,
    `printf '\\0${separator}\\0'`,
    `${plainDiff} --numstat -z "$p" "$c"`,
  ].join('\n')
  const output = await gitInBox(box, script, { SPROUT_COMMIT: checkedCommit(commitId) })
  return parseFileChanges(output)
}

/** The commit's first parent, or undefined for the repository's first commit. */
export async function parentCommit(box: GitBox, commitId: string): Promise<string | undefined> {
  const output = await gitInBox(box, 'git rev-parse -q --verify "$SPROUT_COMMIT^" || true', {
    SPROUT_COMMIT: checkedCommit(commitId),
  })
  const parent = output.trim().split('\n').at(-1) ?? ''
  return commitPattern.test(parent) ? parent : undefined
}

export async function headCommit(box: GitBox): Promise<string | undefined> {
  const output = await gitInBox(box, 'git rev-parse -q --verify HEAD || true', {})
  const head = output.trim().split('\n').at(-1) ?? ''
  return commitPattern.test(head) ? head : undefined
}
