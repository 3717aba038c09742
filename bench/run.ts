// `npm run bench [name…]` prints the figures for docs/performance.md;
// `-- --compare [name…] [--update-baseline [--note=…]]` checks the quick set against
// bench/baseline.json (docs/performance.md "Kept fast: bench --compare").
import { benchAdminUsers } from './admin-users.ts'
import { benchAppDatabase } from './app-database.ts'
import { benchAppServers } from './app-servers.ts'
import { benchAuditSignIn } from './audit-sign-in.ts'
import { benchBoxRoot } from './box-root.ts'
import { benchBoxStartsBurst } from './box-starts-burst.ts'
import { benchBrowserTool } from './browser-tool.ts'
import { benchChatImages } from './chat-images.ts'
import { benchChatListeners } from './chat-listeners.ts'
import { benchChatStream } from './chat-stream.ts'
import { benchCheckAfterRun } from './check-after-run.ts'
import { benchChecks } from './checks.ts'
import { benchClusterFigures } from './cluster-figures.ts'
import { benchCodeTab } from './code-tab.ts'
import {
  type BaselineMetric,
  compareWithBaseline,
  describeMachine,
  readBaseline,
  worseThreshold,
  writeBaseline,
} from './compare.ts'
import { benchConfinement } from './confinement.ts'
import { benchDevbox } from './devbox.ts'
import { benchDownload } from './download.ts'
import { benchErrorIngest } from './error-ingest.ts'
import { benchEvaluations } from './evaluations.ts'
import { benchFullstackStarter } from './fullstack-starter.ts'
import { benchIdleDevServers } from './idle-dev-servers.ts'
import { benchKubernetesDriver } from './kubernetes-driver.ts'
import type { Benchmark } from './lib/metrics.ts'
import { benchOrganizationsThroughput } from './organizations-throughput.ts'
import { benchPrivateApps } from './private-apps.ts'
import { benchRedaction } from './redaction.ts'
import { benchRollingRestart } from './rolling-restart.ts'
import { benchStartup } from './startup.ts'
import { benchStartupWorkspaces } from './startup-workspaces.ts'
import { benchSymbolication } from './symbolication.ts'
import { benchTestSetup } from './test-setup.ts'
import { benchVaultPreview } from './vault-preview.ts'
import { benchVersions } from './versions.ts'

/** A benchmark that prints figures only (none of them is compared). */
const figuresOnly =
  (run: () => Promise<Record<string, string>>): Benchmark =>
  async () => ({ figures: await run(), metrics: [] })

const benchmarks: Record<string, Benchmark> = {
  startup: benchStartup,
  'startup-workspaces': figuresOnly(benchStartupWorkspaces),
  'organizations-throughput': benchOrganizationsThroughput,
  devbox: benchDevbox,
  'fullstack-starter': benchFullstackStarter,
  'app-database': figuresOnly(benchAppDatabase),
  confinement: figuresOnly(benchConfinement),
  'box-root': figuresOnly(benchBoxRoot),
  'chat-stream': benchChatStream,
  'chat-listeners': benchChatListeners,
  'test-setup': figuresOnly(benchTestSetup),
  redaction: figuresOnly(benchRedaction),
  'vault-preview': figuresOnly(benchVaultPreview),
  'app-servers': benchAppServers,
  'idle-dev-servers': figuresOnly(benchIdleDevServers),
  'error-ingest': figuresOnly(benchErrorIngest),
  symbolication: figuresOnly(benchSymbolication),
  evaluations: figuresOnly(benchEvaluations),
  'admin-users': figuresOnly(benchAdminUsers),
  versions: figuresOnly(benchVersions),
  'code-tab': figuresOnly(benchCodeTab),
  download: figuresOnly(benchDownload),
  'chat-images': figuresOnly(benchChatImages),
  checks: figuresOnly(benchChecks),
  'box-starts-burst': figuresOnly(benchBoxStartsBurst),
  'check-after-run': figuresOnly(benchCheckAfterRun),
  'cluster-figures': figuresOnly(benchClusterFigures),
  'rolling-restart': figuresOnly(benchRollingRestart),
  'kubernetes-driver': figuresOnly(benchKubernetesDriver),
  'browser-tool': figuresOnly(benchBrowserTool),
  'private-apps': figuresOnly(benchPrivateApps),
  'audit-sign-in': figuresOnly(benchAuditSignIn),
}

/** What `--compare` runs: the figures issue 18 keeps fast, in under 5 minutes on 2 cores. */
const compareSet = [
  'startup',
  'organizations-throughput',
  'devbox',
  'fullstack-starter',
  'chat-stream',
  'chat-listeners',
  'app-servers',
]

const argumentsGiven = process.argv.slice(2)
const compare = argumentsGiven.includes('--compare')
const updateBaseline = argumentsGiven.includes('--update-baseline')
const note = argumentsGiven.find((argument) => argument.startsWith('--note='))?.slice(7) ?? ''
const selected = argumentsGiven.filter((argument) => !argument.startsWith('--'))
const unknown = selected.filter((name) =>
  compare ? !compareSet.includes(name) : !(name in benchmarks),
)
function refuse(message: string): never {
  console.error(message)
  process.exit(1)
}
if (unknown.length > 0) {
  refuse(`${compare ? 'not in the compare set' : 'unknown benchmark'}: ${unknown.join(', ')}`)
}
if (updateBaseline && (!compare || selected.length > 0)) {
  refuse(
    '--update-baseline takes the whole compare set: npm run bench -- --compare --update-baseline',
  )
}

const machine = describeMachine()
const started = performance.now()
console.log(
  `# ${new Date().toISOString()} · ${machine.cores} × ${machine.cpu} · Node ${process.version} · load ${machine.loadAverage}`,
)
const metrics: BaselineMetric[] = []
const failed: string[] = []
// A benchmark that throws, or leaves a socket error unhandled, is reported as failed; the rest
// still run (docs/performance.md "Kept fast: bench --compare").
let stray: unknown
const noteStray = (error: unknown) => {
  stray ??= error
}
process.on('uncaughtException', noteStray)
process.on('unhandledRejection', noteStray)
for (const [name, run] of Object.entries(benchmarks)) {
  if (compare && !compareSet.includes(name)) continue
  if (selected.length > 0 && !selected.includes(name)) continue
  console.log(`\n## ${name}`)
  stray = undefined
  try {
    const result = await run({ quick: compare })
    if (stray) throw stray
    for (const [figure, value] of Object.entries(result.figures)) {
      console.log(`- ${figure}: ${value}`)
    }
    metrics.push(...result.metrics.map((metric) => ({ benchmark: name, ...metric })))
  } catch (error) {
    failed.push(name)
    console.log(
      `- FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    )
  }
}

if (compare) {
  const baseline = await readBaseline()
  const seconds = Math.round((performance.now() - started) / 1_000)
  console.log(
    `\n## compared with bench/baseline.json (${seconds} s)` +
      (baseline
        ? `: ${baseline.date.slice(0, 10)}, ${baseline.machine.cores} × ${baseline.machine.cpu}, Node ${baseline.node}, load ${baseline.machine.loadAverage}${baseline.note ? ` (${baseline.note})` : ''}`
        : ': no baseline yet'),
  )
  const { table, marked } = compareWithBaseline(metrics, baseline)
  console.log(`\n${table}\n`)
  if (
    baseline &&
    (baseline.machine.cpu !== machine.cpu || baseline.machine.cores !== machine.cores)
  ) {
    console.log('The baseline was taken on another machine: its ratios say little about the code.')
  }
  if (marked.length > 0) {
    const names = [...new Set(marked.map((metric) => metric.benchmark))].join(' ')
    console.log(
      `${marked.length} figure(s) more than ${Math.round((worseThreshold - 1) * 100)} % worse (✗). ` +
        `Noise on these machines is about that large: repeat before believing it, ` +
        `with \`npm run bench -- --compare ${names}\`.`,
    )
  } else {
    console.log(`No figure more than ${Math.round((worseThreshold - 1) * 100)} % worse.`)
  }
  if (updateBaseline && failed.length > 0) {
    console.log('bench/baseline.json left as it was: a baseline needs every benchmark.')
  } else if (updateBaseline) {
    await writeBaseline(metrics, {
      note,
      machine,
      command: `npm run bench -- ${argumentsGiven.filter((argument) => !argument.startsWith('--note=')).join(' ')}`,
    })
    console.log('bench/baseline.json written.')
  }
}

if (failed.length > 0) {
  console.log(`\n${failed.length} benchmark(s) failed: ${failed.join(', ')}`)
  process.exitCode = 1
}
