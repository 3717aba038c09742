import path from 'node:path'
import { proxyVariables } from '../../../egress/proxy-variables.ts'
import { type BoxSandboxState, boxProxyPort, dataInside } from './box-sandbox-state.ts'

const proxyUrl = `http://127.0.0.1:${boxProxyPort}`
/** The dev server's live variables in the data folder (BoxSandbox.environmentFile). */
const environmentFileName = 'sprout-env.json'
const systemPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

const proxyEnvironment = proxyVariables(proxyUrl)

/** Variables every process of the box gets (the egress proxy, DATABASE_URL). */
export function boxSandboxVariables(state: BoxSandboxState): Record<string, string> {
  const { tools, dataPath } = state
  return {
    // Sprout's own Node first, at the path boxes see it (box-root.ts), wherever it is installed.
    ...(tools.bubblewrapPath ? { PATH: `${tools.toolchain.binInside}:${systemPath}` } : {}),
    ...(dataPath
      ? {
          DATABASE_URL: `file:${path.posix.join(tools.bubblewrapPath ? dataInside : dataPath, 'app.db')}`,
        }
      : {}),
    ...(state.confinedNetwork ? proxyEnvironment : {}),
  }
}

/** The live variables' file, on the host and as the box sees it; undefined without a data folder. */
export function boxEnvironmentFile(
  state: BoxSandboxState,
): { host: string; inside: string } | undefined {
  const { dataPath, tools } = state
  if (!dataPath) return undefined
  return {
    host: path.join(dataPath, environmentFileName),
    inside: path.posix.join(tools.bubblewrapPath ? dataInside : dataPath, environmentFileName),
  }
}
