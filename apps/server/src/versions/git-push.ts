import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Devbox } from '@sprout/devbox/devbox-driver.ts'
import type { PushResult } from '@sprout/protocol/api/versions.ts'
import { cutText } from '@sprout/protocol/text/cut-text.ts'
import { badRequest, conflict, unprocessable } from '../http/app-error.ts'
import type { GitTarget } from './git-hosts.ts'
import { bundleHead, createBundleFile } from './history-bundle.ts'
import { redactToken } from './token-redaction.ts'

const bundleTimeoutSeconds = 120
const pushTimeoutMs = 120_000
/** The history as a git bundle, written to a file as it comes: a bigger app is refused, not cut. */
export const MAX_BUNDLE_BYTES = 192 * 1024 * 1024

export const PUSH_NO_HISTORY = 'The app has no history to push yet.'
export const PUSH_TOO_LARGE = (maxBytes: number) =>
  `The app's history is too large to push (over ${Math.round(maxBytes / 1024 / 1024)} MiB as a git bundle).`

export const PUSH_REJECTED = (branch: string) =>
  `The remote branch ${branch} has commits this app does not have, so the push was rejected. Sprout never force-pushes: push to a new branch, or bring those commits into the app first.`
export const PUSH_TOKEN_REFUSED =
  'The git host refused the token. Check the token, and that it may push to this repository.'

export const PUSH_NOT_A_BUNDLE =
  "The app's dev box did not answer with a git bundle of its history, so nothing was pushed. Check that nothing in the box (its ~/.bash_profile, for one) changes what git prints, then push again."
export const PUSH_TOKEN_NEEDED =
  'The git host asks for a token, and this remote has none (a stored token is dropped when the remote moves to another host). Enter a token that may push to this repository, then push again.'

const branchPattern = /^(?!-)(?!\/)(?!.*\.\.)(?!.*\/\/)(?!.*\.lock$)[A-Za-z0-9._/-]+(?<![./])$/

/**
 * docs/product/versions.md "Push to Git". The workspace's repository is app code's (its config
 * and hooks too), so git reads it only inside the box, writing a bundle of HEAD; the server
 * checks that it is one, unbundles it into a fresh bare repository of its own and pushes from
 * there, without hooks, system or user config, local transports, prompts or redirects, pinned to
 * the address that was checked.
 */
export async function pushHistory(input: {
  box: Devbox
  target: GitTarget
  branch: string
  token: string | undefined
  /** The largest bundle taken (MAX_BUNDLE_BYTES unless a test says less). */
  maxBundleBytes?: number
}): Promise<PushResult> {
  const { box, target, branch, token } = input
  if (!branchPattern.test(branch)) throw badRequest(`${branch} is not a valid branch name.`)
  const folder = await mkdtemp(path.join(tmpdir(), 'sprout-push-'))
  try {
    const bundlePath = path.join(folder, 'history.bundle')
    await writeHistoryBundle(box, bundlePath, input.maxBundleBytes ?? MAX_BUNDLE_BYTES)
    const repository = path.join(folder, 'repository.git')
    const git = safeGit(folder, target, token)
    await git(['init', '-q', '--bare', repository])
    const commitId = await unbundleHead(git, repository, bundlePath)
    const pushed = await git(
      [
        '-C',
        repository,
        'push',
        '--porcelain',
        target.url.href,
        `refs/sprout/push:refs/heads/${branch}`,
      ],
      { allowFailure: true },
    )
    if (pushed.failed) throw pushError(pushed.output, branch, token)
    return { branch, commitId, url: target.url.href }
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/**
 * The box's bundle of HEAD, written to `bundlePath` as it streams, never whole in memory; its
 * command is stopped as soon as the answer is too large or no bundle. Every byte is app code's:
 * only a real bundle reaches git, which then reads no path but it.
 */
async function writeHistoryBundle(box: Devbox, bundlePath: string, maxBytes: number) {
  const stop = new AbortController()
  const file = createBundleFile(bundlePath, maxBytes, () => stop.abort())
  let exitCode: number | null
  try {
    const bundle = await box.exec('git bundle create - HEAD 2>/dev/null | base64 -w0', {
      timeoutSeconds: bundleTimeoutSeconds,
      signal: stop.signal,
      onOutput: file.push,
      // The output is the file's, streamed past the little that is kept besides.
      outputLimitBytes: 1024,
      streamPastLimit: true,
    })
    exitCode = bundle.exitCode
  } finally {
    file.close()
  }
  const result = file.result()
  if (result === 'too-large') throw unprocessable(PUSH_TOO_LARGE(maxBytes))
  if (result === 'not-a-bundle') throw unprocessable(PUSH_NOT_A_BUNDLE)
  if (result === 'empty' || exitCode !== 0) throw unprocessable(PUSH_NO_HISTORY)
}

/**
 * The bundle's objects go into the fresh repository by `git bundle unbundle`, not `git fetch`:
 * a fetch from a bundle needs protocol.file, which would also let git open a local repository.
 */
async function unbundleHead(git: SafeGit, repository: string, bundlePath: string) {
  const verified = await git(['-C', repository, 'bundle', 'verify', '-q', bundlePath], {
    allowFailure: true,
  })
  if (verified.failed) throw unprocessable(PUSH_NOT_A_BUNDLE)
  const unbundled = await git(['-C', repository, 'bundle', 'unbundle', bundlePath], {
    allowFailure: true,
  })
  const head = unbundled.failed ? undefined : bundleHead(unbundled.stdout)
  if (!head) throw unprocessable(PUSH_NOT_A_BUNDLE)
  const commit = await git(['-C', repository, 'rev-parse', '-q', '--verify', `${head}^{commit}`], {
    allowFailure: true,
  })
  if (commit.failed) throw unprocessable(PUSH_NOT_A_BUNDLE)
  await git(['-C', repository, 'update-ref', 'refs/sprout/push', commit.stdout.trim()])
  return commit.stdout.trim()
}

function pushError(output: string, branch: string, token: string | undefined) {
  if (/\[rejected\]|non-fast-forward|fetch first|\(stale info\)/.test(output)) {
    return conflict(PUSH_REJECTED(branch))
  }
  if (/Authentication failed|could not read Username|\b401\b|\b403\b/i.test(output)) {
    return unprocessable(token ? PUSH_TOKEN_REFUSED : PUSH_TOKEN_NEEDED)
  }
  // Redacted before the cut, so no part of an encoded token is left at the edge.
  const shown = redactToken(output, token)
  return unprocessable(`The push failed: ${cutText(shown.trim(), 1000, 'end')}`)
}

type SafeGit = ReturnType<typeof safeGit>

/** git with nothing from the machine's or the user's config, and the token only in its env. */
function safeGit(home: string, target: GitTarget, token: string | undefined) {
  const settings: [string, string][] = [
    ['core.hooksPath', '/dev/null'],
    ['transfer.fsckObjects', 'true'],
    ['http.followRedirects', 'false'],
    ['credential.helper', ''],
    ['protocol.allow', 'never'],
    ['protocol.https.allow', 'always'],
    ['protocol.http.allow', 'always'],
    // No transport that reads the host's files: the bundle is read by `git bundle` alone.
    ['protocol.file.allow', 'never'],
    ['http.curloptResolve', `${target.hostname}:${target.port}:${target.address}`],
  ]
  if (token) {
    const basic = Buffer.from(`x-access-token:${token}`).toString('base64')
    settings.push(['http.extraHeader', `Authorization: Basic ${basic}`])
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    GIT_CONFIG_COUNT: String(settings.length),
  }
  for (const [index, [key, value]] of settings.entries()) {
    env[`GIT_CONFIG_KEY_${index}`] = key
    env[`GIT_CONFIG_VALUE_${index}`] = value
  }
  return (args: string[], options: { allowFailure?: boolean } = {}) =>
    new Promise<{ stdout: string; output: string; failed: boolean }>((resolve, reject) => {
      execFile('git', args, { env, timeout: pushTimeoutMs }, (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`
        if (error && !options.allowFailure) {
          const shown = redactToken(output, token)
          reject(
            new Error(
              `git ${args[0] === '-C' ? args[2] : args[0]} failed: ${cutText(shown, 500, 'end')}`,
            ),
          )
          return
        }
        resolve({ stdout, output, failed: Boolean(error) })
      })
    })
}
