/** TEST FIXTURE: per test, a temp-folder devbox and the fake provider server it starts. */
import { afterEach, beforeEach } from 'vitest'
import { type RunAgentOptions, runAgent } from '../run-agent.ts'
import type { FakeTurn } from './fake-provider-script.ts'
import type { FakeProviderServer } from './fake-provider-server.ts'
import { createTempFolderDevbox, type TempFolderDevbox } from './temp-folder-devbox.ts'

export type AgentTestContext = {
  /** The current test's devbox. */
  readonly devbox: TempFolderDevbox
  /** Starts a fake provider server with the script; it is closed after the test. */
  startServer: (
    start: (script: FakeTurn[]) => Promise<FakeProviderServer>,
    script: FakeTurn[],
  ) => Promise<FakeProviderServer>
  /** Runs the agent in the devbox with the usual test system prompt and no provider retries. */
  runAgent: (
    options: Omit<RunAgentOptions, 'contextWindow' | 'system'> &
      Partial<Pick<RunAgentOptions, 'contextWindow' | 'system'>>,
  ) => ReturnType<typeof runAgent>
}

export function useAgentTestContext(): AgentTestContext {
  let devbox: TempFolderDevbox | undefined
  let server: FakeProviderServer | undefined
  beforeEach(async () => {
    devbox = await createTempFolderDevbox()
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
    await devbox?.remove()
    devbox = undefined
  })
  const current = () => {
    if (!devbox) throw new Error('The devbox exists only while a test runs')
    return devbox
  }
  return {
    get devbox() {
      return current()
    },
    runAgent: (options) =>
      runAgent({
        contextWindow: 200_000,
        system: 'You build apps.',
        toolContext: { devbox: current() },
        maxRetries: 0,
        ...options,
      }),
    startServer: async (start, script) => {
      server = await start(script)
      return server
    },
  }
}
