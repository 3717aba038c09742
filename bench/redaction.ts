// Vault redaction per streamed chunk with 50 secrets in the vault (docs/product/vault.md
// "Redaction"): a stored chat chunk (a text delta, a tool result) and a piece of shell output.
import { randomBytes } from 'node:crypto'
import { createSecretRedactor } from '@sprout/protocol/text/redact-secrets.ts'
import { quantile } from './lib/stats.ts'

const microseconds = (value: number) => `${value.toFixed(1)} µs`

function timeEach(samples: number, work: (index: number) => void): number[] {
  for (let index = 0; index < 2000; index++) work(index) // warm-up
  const durations: number[] = []
  for (let index = 0; index < samples; index++) {
    const started = process.hrtime.bigint()
    work(index)
    durations.push(Number(process.hrtime.bigint() - started) / 1000)
  }
  return durations
}

export async function benchRedaction(): Promise<Record<string, string>> {
  const secrets: Record<string, string> = {}
  for (let index = 0; index < 50; index++) {
    secrets[`SECRET_${index}`] = `sk-${randomBytes(20).toString('base64url')}`
  }
  const redactor = createSecretRedactor(secrets)
  const prose = 'The weather route reads the key from process.env and calls the API. '
  const delta = (index: number) => ({
    type: 'text-delta',
    id: 'text-1',
    delta: `${prose.slice(0, 20 + (index % 40))} sk-and-s`,
  })
  const shellPiece = `${'npm notice some output line that looks like logs sk- s\n'.repeat(70)}`
  const withSecret = `${shellPiece}token=${secrets.SECRET_17}\n`
  const stream = redactor.stream()
  const storedChunks = timeEach(20_000, (index) => redactor.redactValue(delta(index)))
  const toolResults = timeEach(5_000, () =>
    redactor.redactValue({ type: 'tool-output-available', output: withSecret }),
  )
  const shellPieces = timeEach(5_000, (index) =>
    stream.push(index % 10 === 0 ? withSecret : shellPiece),
  )
  return {
    'stored text-delta chunk (~60 B), p50 / p99': `${microseconds(quantile(storedChunks, 0.5))} / ${microseconds(quantile(storedChunks, 0.99))}`,
    'tool result chunk (4 KB), p50 / p99': `${microseconds(quantile(toolResults, 0.5))} / ${microseconds(quantile(toolResults, 0.99))}`,
    'streamed shell output piece (4 KB), p50 / p99': `${microseconds(quantile(shellPieces, 0.5))} / ${microseconds(quantile(shellPieces, 0.99))}`,
  }
}
