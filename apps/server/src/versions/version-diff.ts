import {
  DIFF_FILE_MAX_BYTES,
  type DiffFile,
  type Version,
  type VersionDiff,
  type VersionFileChange,
} from '@sprout/protocol/api/versions.ts'
import { checkedCommit, type GitBox, parentOf, plainDiff } from './version-files.ts'

/** The whole diff a version's files come from: more than this is cut (each file is cut smaller). */
const diffOutputLimitBytes = 32 * 1024 * 1024

function cutPatch(patch: string): { patch: string; truncated: boolean } {
  if (Buffer.byteLength(patch) <= DIFF_FILE_MAX_BYTES) return { patch, truncated: false }
  const cut = Buffer.from(patch).subarray(0, DIFF_FILE_MAX_BYTES).toString()
  // Whole lines only (a cut inside a character leaves a replacement character at the end).
  return { patch: cut.slice(0, cut.lastIndexOf('\n') + 1), truncated: true }
}

function lineCount(patch: string): number {
  if (patch === '') return 0
  return patch.split('\n').length - (patch.endsWith('\n') ? 1 : 0)
}

/** One file's section of `git diff` (from `diff --git`) as the contract's file. */
function diffFileOf(change: VersionFileChange, section: string, cutByOutput: boolean): DiffFile {
  const binary = /^(Binary files .* differ|GIT binary patch)$/m.test(section)
  const hunkStart = section.search(/^@@/m)
  const whole = binary || hunkStart < 0 ? '' : section.slice(hunkStart)
  const { patch, truncated } = cutPatch(whole)
  return {
    ...change,
    binary,
    patch,
    lines: lineCount(patch),
    truncated: truncated || cutByOutput,
  }
}

/** Splits `git diff` output into its files' sections, in git's order (the same as the files'). */
export function splitDiff(output: string): string[] {
  const starts = [...output.matchAll(/^diff --git /gm)].map((match) => match.index ?? 0)
  return starts.map((start, index) => output.slice(start, starts[index + 1] ?? output.length))
}

/** The version's commit against its parent, from git in the box (docs/product/versions.md "Diffs"). */
export async function versionDiff(box: GitBox, version: Version): Promise<VersionDiff> {
  const result = await box.exec(['set -e', parentOf, `${plainDiff} "$p" "$c"`].join('\n'), {
    timeoutSeconds: 60,
    env: { SPROUT_COMMIT: checkedCommit(version.commitId) },
    outputLimitBytes: diffOutputLimitBytes,
  })
  if (result.exitCode !== 0) {
    throw new Error(`git diff failed (exit ${result.exitCode}): ${result.output.slice(-2000)}`)
  }
  const sections = splitDiff(result.output)
  const files = version.files.map((change, index) => {
    const section = sections[index] ?? ''
    const cutByOutput = result.truncated && index >= sections.length - 1
    return diffFileOf(change, section, cutByOutput)
  })
  return { version, files }
}
