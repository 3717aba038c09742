// `npm run bench [name…]`: runs the benchmarks and prints their figures (copy them into
// docs/performance.md with the date, the machine and the command).
import os from 'node:os'
import { benchAppDatabase } from './app-database.ts'
import { benchAppServers } from './app-servers.ts'
import { benchChatListeners } from './chat-listeners.ts'
import { benchChatStream } from './chat-stream.ts'
import { benchConfinement } from './confinement.ts'
import { benchDevbox } from './devbox.ts'
import { benchErrorIngest } from './error-ingest.ts'
import { benchEvaluations } from './evaluations.ts'
import { benchFullstackStarter } from './fullstack-starter.ts'
import { benchIdleDevServers } from './idle-dev-servers.ts'
import { benchOrganizationsThroughput } from './organizations-throughput.ts'
import { benchRedaction } from './redaction.ts'
import { benchStartup } from './startup.ts'
import { benchStartupWorkspaces } from './startup-workspaces.ts'
import { benchSymbolication } from './symbolication.ts'
import { benchTestSetup } from './test-setup.ts'
import { benchVaultPreview } from './vault-preview.ts'

const benchmarks: Record<string, () => Promise<Record<string, string>>> = {
  startup: benchStartup,
  'startup-workspaces': benchStartupWorkspaces,
  'organizations-throughput': benchOrganizationsThroughput,
  devbox: benchDevbox,
  'fullstack-starter': benchFullstackStarter,
  'app-database': benchAppDatabase,
  confinement: benchConfinement,
  'chat-stream': benchChatStream,
  'chat-listeners': benchChatListeners,
  'test-setup': benchTestSetup,
  redaction: benchRedaction,
  'vault-preview': benchVaultPreview,
  'app-servers': benchAppServers,
  'idle-dev-servers': benchIdleDevServers,
  'error-ingest': benchErrorIngest,
  symbolication: benchSymbolication,
  evaluations: benchEvaluations,
}

const selected = process.argv.slice(2)
console.log(
  `# ${new Date().toISOString()} · ${os.cpus().length} × ${os.cpus()[0]?.model} · Node ${process.version}`,
)
for (const [name, run] of Object.entries(benchmarks)) {
  if (selected.length > 0 && !selected.includes(name)) continue
  console.log(`\n## ${name}`)
  for (const [figure, value] of Object.entries(await run())) console.log(`- ${figure}: ${value}`)
}
