// `npm run agent-eval -- --model <id> [--specs dir] …`: runs app specifications through the real
// product with any model and writes a table (docs/product/agent-eval.md).
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { OptionsError, parseEvalOptions } from './agent-eval/eval-options.ts'
import { pageBrowser } from './agent-eval/page-browser.ts'
import { findModel, repairsExpected, signUpEvalUser } from './agent-eval/product-api.ts'
import { startProductServer } from './agent-eval/product-server.ts'
import { formatSeconds, jsonReport, markdownReport } from './agent-eval/results-table.ts'
import { runSpec } from './agent-eval/run-spec.ts'
import { runSpecs } from './agent-eval/run-specs.ts'
import { loadSpecs, SpecError } from './agent-eval/spec-format.ts'

const adminEmail = 'agent-eval@example.com'

async function main(): Promise<number> {
  const options = parseEvalOptions(process.argv.slice(2))
  const specs = await loadSpecs(options.specsDir)
  const startedAt = new Date().toISOString()
  const stop = new AbortController()
  // Ctrl-C: no new spec starts, the running ones are interrupted, the server is stopped below.
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130)
    console.error('Stopping: interrupting the running specs and the server…')
    stop.abort()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  console.error(`Starting Sprout for ${specs.length} spec(s) with ${options.model}…`)
  const server = await startProductServer({
    adminEmail,
    poolTarget: Math.min(options.concurrency, specs.length),
    browserTool: options.browserTool,
  })
  const browser = pageBrowser()
  try {
    const api = await signUpEvalUser(server.origin, adminEmail)
    const model = await findModel(api, options.model)
    const repairs = await repairsExpected(api)
    const { results, budgetStop } = await runSpecs(
      specs,
      { concurrency: options.concurrency, maxCost: options.maxCost, signal: stop.signal },
      (spec) =>
        runSpec(
          { api, model, browser, repairs, timeoutMs: options.timeoutMs, signal: stop.signal },
          spec,
        ),
      (result) =>
        console.error(
          `${result.status.padEnd(7)} ${result.name} (${formatSeconds(result.durationMs)})`,
        ),
    )
    const summary = {
      model: options.model,
      browserTool: options.browserTool,
      startedAt,
      results,
      budgetStop,
    }
    const markdown = markdownReport(summary)
    process.stdout.write(markdown)
    if (options.out) await writeReports(options.out, markdown, jsonReport(summary))
    if (stop.signal.aborted) return 130
    const allPassed = results.every((result) => result.status === 'passed')
    // A CI log is all there is then: what the server said goes with a failure.
    if (!allPassed) console.error(`\nServer output (last lines):\n${server.output()}`)
    return allPassed ? 0 : 1
  } catch (error) {
    if (!(error instanceof OptionsError)) {
      console.error(`Server output (last lines):\n${server.output()}`)
    }
    throw error
  } finally {
    await browser.close().catch(() => undefined)
    await server.stop()
  }
}

/** `--out report.md` writes report.md and report.json; any other name gets both extensions. */
async function writeReports(out: string, markdown: string, json: string) {
  const base = out.replace(/\.(md|json)$/, '')
  await mkdir(path.dirname(path.resolve(base)), { recursive: true })
  await writeFile(`${base}.md`, markdown)
  await writeFile(`${base}.json`, json)
  console.error(`Wrote ${base}.md and ${base}.json`)
}

try {
  process.exitCode = await main()
} catch (error) {
  if (error instanceof OptionsError || error instanceof SpecError) {
    console.error(error.message)
    process.exitCode = 2
  } else {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error)
    process.exitCode = 1
  }
}
