import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { PackType } from '../../devbox-driver.ts'
import { boxEnvironment } from './sandbox/box-environment.ts'

const runFile = promisify(execFile)

/** The new workspace's git repository, with the template as its first commit. */
export async function initializeRepository(workspacePath: string, packType: PackType) {
  const git = (...args: string[]) =>
    runFile('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
      cwd: workspacePath,
      env: boxEnvironment(workspacePath, { GIT_CONFIG_NOSYSTEM: '1' }),
    })
  await git('init', '-q', '-b', 'main')
  await git('config', 'user.name', 'Sprout')
  await git('config', 'user.email', 'sprout@localhost')
  await git('add', '-A')
  await git('commit', '-q', '-m', `Start from the ${packType} template`)
}
