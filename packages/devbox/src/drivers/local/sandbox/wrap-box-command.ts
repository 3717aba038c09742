import { randomUUID } from 'node:crypto'
import { closeSync, mkdirSync, openSync, unlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { ProcessCommand } from '../processes/process-group.ts'
import type { BoxSandboxState } from './box-sandbox-state.ts'
import { shellQuote } from './shell-quote.ts'

/**
 * bubblewrap reads its options from descriptor 3 (deleted once opened; seccomp on 4), so the box's
 * pid 1 shows no host path or box id. The server opens both at spawn (process-group.ts); the
 * prelude joins the cgroups and network namespace before bubblewrap.
 */
export function wrapBoxCommand(
  state: BoxSandboxState,
  bubblewrapArguments: string[],
  command: string[],
): ProcessCommand {
  const { tools, network } = state
  // NUL separates the options in the file: a path holding one would add options of its own.
  if ([...bubblewrapArguments, ...command].some((argument) => argument.includes('\0'))) {
    throw new Error('A command cannot contain NUL bytes')
  }
  const prelude = (state.cgroup?.procsFiles ?? [])
    .map((file) => `echo $$ > ${shellQuote(file)} && `)
    .join('')
  const enterNetwork =
    state.confinedNetwork && network && tools.nsenterPath
      ? [tools.nsenterPath, `--net=${network.namespacePath()}`, '--']
      : []
  const openInheritedFiles = () => {
    state.argumentsDirectory ??= makeArgumentsDirectory(tools.runDirectory)
    const argumentsFile = path.join(state.argumentsDirectory, `${state.boxId}-${randomUUID()}`)
    writeFileSync(argumentsFile, `${bubblewrapArguments.join('\0')}\0`, { mode: 0o600 })
    const descriptors: number[] = []
    try {
      descriptors.push(openSync(argumentsFile, 'r'))
      if (tools.seccompPath) descriptors.push(openSync(tools.seccompPath, 'r'))
      return descriptors
    } catch (error) {
      for (const descriptor of descriptors) closeSync(descriptor)
      throw error
    } finally {
      unlinkSync(argumentsFile)
    }
  }
  return {
    argv: [...enterNetwork, tools.bubblewrapPath ?? 'bwrap', '--args', '3', '--', ...command],
    prelude,
    openInheritedFiles,
  }
}

function makeArgumentsDirectory(runDirectory: string): string {
  const directory = path.join(runDirectory, 'arguments')
  mkdirSync(directory, { recursive: true, mode: 0o700 })
  return directory
}
