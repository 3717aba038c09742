// Issue 29, item 3: an app's answer that trickles, or never comes, holds no visitor's connection
// for good, while one that keeps sending is never cut (docs/security.md "Answers of an app's server").
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { proxyHttp } from './proxy.ts'

const idleTimeoutMs = 1000

describe('proxyHttp ends an answer idle for too long', () => {
  let folder: string
  let upstream: http.Server
  let proxy: http.Server
  let port: number
  /** Resolved when the upstream's answer to the trickling request is closed (released). */
  let trickleReleased: Promise<void>
  let releaseTrickle: () => void

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'sprout-proxy-idle-'))
    const socketPath = path.join(folder, 'upstream.sock')
    trickleReleased = new Promise((resolve) => {
      releaseTrickle = resolve
    })
    upstream = http.createServer((request, response) => {
      if (request.url === '/trickle') {
        // A byte, then nothing more, without end.
        response.writeHead(200, { 'content-type': 'text/plain' })
        response.write('a')
        response.on('close', () => releaseTrickle())
        return
      }
      if (request.url === '/silent') return
      if (request.url === '/heartbeat') {
        // Keeps sending for longer than the idle limit in all, never idle that long.
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        let beats = 0
        const timer = setInterval(() => {
          beats++
          response.write(`data: ${beats}\n\n`)
          if (beats === 15) {
            clearInterval(timer)
            response.end()
          }
        }, idleTimeoutMs / 10)
        return
      }
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.end('ok')
    })
    await new Promise<void>((resolve) => upstream.listen(socketPath, resolve))
    proxy = http.createServer((request, response) =>
      proxyHttp(request, response, { socketPath }, { idleTimeoutMs }),
    )
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    port = (proxy.address() as AddressInfo).port
  })
  afterAll(async () => {
    proxy.closeAllConnections()
    upstream.closeAllConnections()
    await new Promise((resolve) => proxy.close(resolve))
    await new Promise((resolve) => upstream.close(resolve))
    await rm(folder, { recursive: true, force: true })
  })

  /** The status, what came of the body, and whether the answer was cut off before its end. */
  const get = (requestPath: string, onFirstByte?: () => void) =>
    new Promise<{ status: number; body: string; cut: boolean }>((resolve, reject) => {
      const request = http.get(
        { host: '127.0.0.1', port, path: requestPath, agent: false },
        (response) => {
          let body = ''
          response.on('data', (chunk: Buffer) => {
            if (body === '') onFirstByte?.()
            body += chunk.toString()
          })
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body, cut: false }))
          response.on('aborted', () =>
            resolve({ status: response.statusCode ?? 0, body, cut: true }),
          )
          response.on('error', () => resolve({ status: response.statusCode ?? 0, body, cut: true }))
        },
      )
      request.on('error', reject)
    })

  it('cuts a trickling answer off and releases its connection, answering others meanwhile', async () => {
    let others: Promise<{ status: number; body: string }> | undefined
    const trickle = get('/trickle', () => {
      // While the trickle is held open, the proxy answers another visitor.
      others = get('/')
    })
    const cut = await trickle
    expect(cut).toEqual({ status: 200, body: 'a', cut: true })
    await trickleReleased
    expect(await others).toMatchObject({ status: 200, body: 'ok' })
  })

  it('answers 504 when no answer comes at all', async () => {
    const silent = await get('/silent')
    expect(silent.status).toBe(504)
    expect(silent.body).toBe(
      'The app sent nothing for too long, so its answer was ended. Reload to try again.',
    )
  })

  it('never cuts an answer that keeps sending, however long it lasts in all', async () => {
    const stream = await get('/heartbeat')
    expect(stream.cut).toBe(false)
    expect(stream.body).toContain('data: 15')
  })
})
