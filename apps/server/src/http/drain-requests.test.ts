// A stop drains the server (drain-requests.ts): requests in progress finish, event streams end at
// once, new connections are refused, and the grace bounds the wait.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { trackRequests } from './drain-requests.ts'

/** A server whose `/slow` answers when `finish` is called, and whose `/events` never ends. */
async function serverWithSlowRequest() {
  let finish: () => void = () => undefined
  const started = { slow: false, events: false }
  const server = http.createServer((request, response) => {
    if (request.url === '/events') {
      started.events = true
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      return void response.write(': open\n\n')
    }
    started.slow = true
    finish = () => response.end('finished')
  })
  const requests = trackRequests(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, requests, started, finish: () => finish() }
}

describe('draining the server on stop', () => {
  it('lets a request in progress finish, ends event streams and refuses new connections', async () => {
    const server = await serverWithSlowRequest()
    const slow = fetch(`${server.url}/slow`).then((response) => response.text())
    const events = await fetch(`${server.url}/events`, { headers: { accept: 'text/event-stream' } })
    const eventsEnded = events.text().then(
      () => 'ended',
      () => 'ended',
    )
    await expect.poll(() => server.started.slow && server.started.events).toBe(true)

    const drained = server.requests.drain(60_000)
    expect(await eventsEnded).toBe('ended')
    await expect(fetch(`${server.url}/slow`)).rejects.toThrow()
    server.finish()
    expect(await slow).toBe('finished')
    // Done when the last request finished, long before the grace.
    await drained
  })

  it('closes what is still open once the grace has passed', async () => {
    const server = await serverWithSlowRequest()
    const slow = fetch(`${server.url}/slow`).then(
      (response) => response.text(),
      () => 'cut',
    )
    await expect.poll(() => server.started.slow).toBe(true)
    await server.requests.drain(100)
    expect(await slow).toBe('cut')
  })
})
