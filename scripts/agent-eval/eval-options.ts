import { parseArgs } from 'node:util'

/** `npm run agent-eval -- …` (docs/product/agent-eval.md "Options"). */
export type EvalOptions = {
  model: string
  specsDir: string
  concurrency: number
  /** Dollars; no new spec starts once the spent cost reaches it. */
  maxCost: number | undefined
  out: string | undefined
  timeoutMs: number
  /** `--browser-tool off`: the agent works without its browser, to measure what it adds. */
  browserTool: boolean
}

export const USAGE =
  'Usage: npm run agent-eval -- --model <id> [--specs dir] [--concurrency N] [--max-cost USD] ' +
  '[--timeout seconds] [--browser-tool on|off] [--out file]'

/** More specs at once than this only queue for the machine's dev boxes. */
const maxConcurrency = 8

export class OptionsError extends Error {
  override name = 'OptionsError'
}

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback
  const number = Number(value)
  if (!Number.isFinite(number) || number <= 0) {
    throw new OptionsError(`--${name} must be a positive number, not "${value}"`)
  }
  return number
}

export function parseEvalOptions(argv: string[]): EvalOptions {
  let values: ReturnType<typeof parse>['values']
  try {
    values = parse(argv).values
  } catch (error) {
    throw new OptionsError(`${(error as Error).message}\n${USAGE}`)
  }
  if (!values.model) throw new OptionsError(`--model is required\n${USAGE}`)
  const concurrency = positiveNumber('concurrency', values.concurrency, 1)
  if (!Number.isInteger(concurrency) || concurrency > maxConcurrency) {
    throw new OptionsError(`--concurrency must be a whole number from 1 to ${maxConcurrency}`)
  }
  const browserTool = values['browser-tool'] ?? 'on'
  if (browserTool !== 'on' && browserTool !== 'off') {
    throw new OptionsError(`--browser-tool must be on or off, not "${browserTool}"`)
  }
  return {
    model: values.model,
    specsDir: values.specs ?? 'evals/agent',
    concurrency,
    maxCost:
      values['max-cost'] === undefined
        ? undefined
        : positiveNumber('max-cost', values['max-cost'], 0),
    out: values.out,
    timeoutMs: positiveNumber('timeout', values.timeout, 300) * 1000,
    browserTool: browserTool === 'on',
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      model: { type: 'string' },
      specs: { type: 'string' },
      concurrency: { type: 'string' },
      'max-cost': { type: 'string' },
      timeout: { type: 'string' },
      out: { type: 'string' },
      'browser-tool': { type: 'string' },
    },
  })
}
