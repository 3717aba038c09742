// The relay's connections to an owner (relay-streams.ts): the relay closes an idle one before the
// owner's keep-alive timeout, and routes a read again if the owner closed one under it; and an
// owner that refuses the connection (it is stopping) has read none of the body, which goes on.
import http from 'node:http'
import net, { type AddressInfo, type Socket } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { forwardedHeaders, relayRequest } from './relay-streams.ts'

const servers: http.Server[] = []

async function listen(server: http.Server) {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections()
    server.close()
  }
})

describe('the relay to an owner', () => {
  it("closes an idle connection before the owner's keep-alive timeout would", async () => {
    // Who ended each connection the owner saw: the relay (its FIN first) or the owner.
    const endedBy: string[] = []
    const owner = http.createServer((_request, response) => response.end('owned'))
    owner.on('connection', (socket: Socket) => {
      let relayEnded = false
      socket.on('end', () => {
        relayEnded = true
      })
      socket.on('close', () => endedBy.push(relayEnded ? 'relay' : 'owner'))
    })
    const ownerUrl = await listen(owner)
    const relay = http.createServer((request, response) =>
      relayRequest(request, response, ownerUrl, forwardedHeaders(request, false)),
    )
    const relayUrl = await listen(relay)

    const answer = await fetch(relayUrl, { headers: { connection: 'close' } })
    expect(await answer.text()).toBe('owned')
    // Node's server keeps an idle connection 5 s plus a second; the relay lets go after 4 s.
    await expect.poll(() => endedBy, { timeout: 20_000, interval: 250 }).toHaveLength(1)
    expect(endedBy).toEqual(['relay'])
  })

  it('hands a request an owner refused back with its body unread, to be routed again', async () => {
    // A port nobody listens on: as an owner that stopped listening.
    const closed = http.createServer()
    const refusingUrl = await listen(closed)
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const served: string[] = []
    const owner = http.createServer(async (request, response) => {
      let body = ''
      for await (const chunk of request) body += chunk
      served.push(`${request.method} ${body}`)
      response.end('stored')
    })
    const ownerUrl = await listen(owner)
    let refusals = 0
    const relayedResponses: http.ServerResponse[] = []
    const relay = http.createServer((request, response) => {
      relayedResponses.push(response)
      const refuseAgain = (left: number): void =>
        relayRequest(
          request,
          response,
          left > 0 ? refusingUrl : ownerUrl,
          forwardedHeaders(request, false),
          {
            again: () => {
              refusals += 1
              refuseAgain(left - 1)
            },
          },
        )
      refuseAgain(12)
    })
    const relayUrl = await listen(relay)

    const answer = await fetch(relayUrl, { method: 'POST', body: 'a message' })
    expect(await answer.text()).toBe('stored')
    expect(refusals).toBe(12)
    // Each attempt watched the client once, not one more listener per retry.
    expect(relayedResponses.every((response) => response.listenerCount('close') <= 2)).toBe(true)
    expect(served).toEqual(['POST a message'])
  })

  it('routes a read again when the owner dropped the kept-alive connection it went out on', async () => {
    // Each connection answers its first request and drops the second unanswered: the owner's
    // keep-alive timeout firing as the relay reused the connection.
    const owner = net.createServer((socket) => {
      let requests = 0
      socket.on('data', (data) => {
        if (!data.includes('\r\n\r\n')) return
        requests += 1
        if (requests > 1) return void socket.destroy()
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nowned')
      })
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => owner.listen(0, '127.0.0.1', resolve))
    const ownerUrl = `http://127.0.0.1:${(owner.address() as AddressInfo).port}`
    let routedAgain = 0
    const relay = http.createServer((request, response) => {
      const send = (): void =>
        relayRequest(request, response, ownerUrl, forwardedHeaders(request, false), {
          again: () => {
            routedAgain += 1
            send()
          },
        })
      send()
    })
    const relayUrl = await listen(relay)

    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await fetch(relayUrl, { headers: { connection: 'close' } })
      expect(answer.status).toBe(200)
      expect(await answer.text()).toBe('owned')
    }
    expect(routedAgain).toBe(2)
    owner.close()
  })

  it('sends a body only once the owner took the request: one it dropped before goes on whole, as does a read', async () => {
    // The first owner closes each connection once a request's head arrived, before answering
    // 100 Continue: a stopping owner closing what it had not started.
    const heads: string[] = []
    const dropping = net.createServer((socket) => {
      let seen = ''
      socket.on('data', (data) => {
        seen += data
        if (!seen.includes('\r\n\r\n')) return
        heads.push(seen)
        socket.destroy()
      })
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve))
    const droppingUrl = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`
    const served: string[] = []
    const owner = http.createServer(async (request, response) => {
      let body = ''
      for await (const chunk of request) body += chunk
      served.push(body)
      response.end('stored')
    })
    const ownerUrl = await listen(owner)
    const relay = http.createServer((request, response) => {
      const send = (url: string): void =>
        relayRequest(request, response, url, forwardedHeaders(request, false), {
          again: () => send(ownerUrl),
        })
      send(droppingUrl)
    })
    const relayUrl = await listen(relay)

    const answer = await fetch(relayUrl, { method: 'POST', body: 'a message, once' })
    expect(await answer.text()).toBe('stored')
    expect(served).toEqual(['a message, once'])
    // The dropped attempt carried the request's head and none of its body.
    expect(heads).toHaveLength(1)
    expect(heads[0]).toMatch(/expect: 100-continue/i)
    expect(heads[0]).not.toContain('a message')
    // A read the owner dropped on a new connection goes on too: it changes nothing.
    const read = await fetch(relayUrl, { headers: { connection: 'close' } })
    expect(await read.text()).toBe('stored')
    expect(heads).toHaveLength(2)
    dropping.close()
  })
})
