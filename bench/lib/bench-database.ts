// A PostgreSQL database for one benchmark, dropped after it.
import pg from 'pg'

/**
 * A PostgreSQL database of its own when BENCH_DATABASE_URL, TEST_DATABASE_URL or the local test
 * server answers.
 */
export async function createBenchDatabase(
  label?: string,
): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const base =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test'
  const name = `sprout_bench_${label ? `${label}_` : ''}${Date.now()}`
  const admin = new pg.Client({ connectionString: base })
  try {
    await admin.connect()
    await admin.query(`create database ${name}`)
  } catch (error) {
    console.warn(`PostgreSQL not measured: ${(error as Error).message}`)
    await admin.end().catch(() => undefined)
    return undefined
  }
  await admin.end()
  const url = new URL(base)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}
