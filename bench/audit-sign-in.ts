// The audit log's cost on a sign-in (docs/product/audit.md): password sign-ins over real HTTP,
// in alternating rounds of the same minutes with the log writing its events and with its write
// left out (the request's body copied and read either way); p50 and p95 of each, and their ratio.
import { createTestApp } from '../apps/server/src/testing/app-harness.ts'
import { quantile } from './lib/stats.ts'

const rounds = 6
const signInsPerRound = 30

export async function benchAuditSignIn(): Promise<Record<string, string>> {
  const harness = await createTestApp({
    AUTH_RATE_LIMIT: '100000/60',
    AUTH_ACCOUNT_RATE_LIMIT: '100000/60',
  })
  try {
    await harness.listen()
    const user = await harness.signUp()
    const url = `http://127.0.0.1:${harness.port}/api/auth/sign-in/email`
    const signIn = async () => {
      const started = performance.now()
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: harness.origin },
        body: JSON.stringify({ email: user.email, password: 'correct-horse-battery' }),
      })
      await answer.arrayBuffer()
      if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`)
      return performance.now() - started
    }
    const audit = harness.created.audit
    const record = audit.record
    const times = { with: [] as number[], without: [] as number[] }
    for (let index = 0; index < 5; index++) await signIn()
    for (let round = 0; round < rounds; round++) {
      for (const arm of ['with', 'without'] as const) {
        // The bench's own switch: the same object the routes hold, its write left out.
        audit.record = arm === 'with' ? record : async () => {}
        for (let index = 0; index < signInsPerRound; index++) times[arm].push(await signIn())
      }
    }
    audit.record = record
    const p = (arm: 'with' | 'without', q: number) => quantile(times[arm], q)
    return {
      'sign-in with the audit log: p50 / p95': `${p('with', 0.5).toFixed(1)} / ${p('with', 0.95).toFixed(1)} ms`,
      'sign-in without writing it: p50 / p95': `${p('without', 0.5).toFixed(1)} / ${p('without', 0.95).toFixed(1)} ms`,
      'p95 with / without': `${(p('with', 0.95) / p('without', 0.95)).toFixed(3)}×`,
    }
  } finally {
    await harness.close()
  }
}
