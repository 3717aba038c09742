import autocannon from 'autocannon'

export type LoadResult = { requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number }

/** Drives a URL with `connections` concurrent connections for `seconds`. */
export async function load(options: {
  url: string
  connections: number
  seconds: number
  headers?: Record<string, string>
}): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers,
  })
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  }
}
