import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../../../testing/devbox-support.ts'
import { findFreePort } from '../../local/processes/free-port.ts'
import { createAgentClient } from '../box-agent-client.ts'
import { testAgentPath } from '../testing/test-box-settings.ts'

const token = 'the-box-token-0123456789abcdef'

/** The in-box agent as a pod runs it (decision 040): its own process, attacked over HTTP. */
describe('the in-box agent', () => {
  let workspace = ''
  let port = 0
  let agent: ChildProcess
  let client: ReturnType<typeof createAgentClient>

  const call = (input: { method?: string; path: string; body?: string | Buffer; auth?: string }) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const sent = request(
        {
          host: '127.0.0.1',
          port,
          method: input.method ?? 'POST',
          path: input.path,
          headers: input.auth === undefined ? {} : { authorization: input.auth },
        },
        async (response) =>
          resolve({ status: response.statusCode ?? 0, body: await text(response) }),
      )
      sent.on('error', reject)
      sent.end(input.body)
    })

  /** Writes megabytes until the agent answers (it stops reading), then gives its status. */
  const sendHuge = (headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const chunk = Buffer.alloc(1024 * 1024, 32)
      let answered = false
      const sent = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/files/write',
          headers: { ...headers, authorization: `Bearer ${token}` },
        },
        (response) => {
          answered = true
          response.resume()
          resolve(response.statusCode ?? 0)
        },
      )
      // The agent closes the connection after its answer, which a writer may meet before it
      // reads that answer: refused all the same.
      sent.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) return
        if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve(413)
        else reject(error)
      })
      sent.write('{"path":"huge.txt","content":"')
      const writeMore = () => {
        while (!answered && sent.write(chunk)) {}
        if (!answered) sent.once('drain', writeMore)
      }
      writeMore()
    })

  beforeAll(async () => {
    workspace = await mkdtemp(path.join(os.tmpdir(), 'sprout-agent-'))
    await writeFile(path.join(workspace, 'hello.txt'), 'hello')
    port = await findFreePort()
    // The agent as the box image has it: bundled into one file (bundle-agent.ts).
    agent = spawn(process.execPath, [testAgentPath], {
      cwd: workspace,
      env: { ...process.env, SPROUT_AGENT_TOKEN: token, SPROUT_AGENT_PORT: String(port) },
      stdio: 'ignore',
    })
    client = createAgentClient({ token, address: async () => ({ host: '127.0.0.1', port }) })
    await waitFor(
      async () =>
        (await call({ method: 'GET', path: '/health' }).catch(() => undefined))?.status === 200,
    )
  })
  afterAll(async () => {
    client.close()
    agent.kill('SIGKILL')
    await rm(workspace, { recursive: true, force: true })
  })

  it('answers nobody without the token: no command, no file, no archive', async () => {
    for (const auth of [undefined, 'Bearer wrong', `Bearer ${token}x`, token, `bearer ${token}`]) {
      const run = await call({ path: '/run', body: '{"command":["touch","ran"]}', auth })
      const read = await call({ path: '/files/read', body: '{"path":"hello.txt"}', auth })
      const pack = await call({ method: 'GET', path: '/pack?path=.', auth })
      expect([run.status, read.status, pack.status]).toEqual([401, 401, 401])
      expect(read.body).not.toContain('hello')
    }
    await expect(readFile(path.join(workspace, 'ran'))).rejects.toThrow()
  })

  it('runs a command with stdin, its output on both channels, its exit code', async () => {
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    const exitCode = await client.run({
      command: ['sh', '-c', 'cat; echo err >&2; exit 7'],
      stdin: Buffer.from('in\0put'),
      onStdout: (data) => stdout.push(data),
      onStderr: (data) => stderr.push(data),
    })
    expect(exitCode).toBe(7)
    expect(Buffer.concat(stdout).toString()).toBe('in\0put')
    expect(Buffer.concat(stderr).toString()).toBe('err\n')
    await expect(
      client.run({ command: ['no-such-program-here'], onStdout: () => {} }),
    ).rejects.toThrow('executable file not found')
  })

  it('gives its commands no token: the box’s processes cannot read it from their environment', async () => {
    const output: Buffer[] = []
    await client.run({ command: ['env'], onStdout: (data) => output.push(data) })
    expect(Buffer.concat(output).toString()).not.toContain(token)
    expect(Buffer.concat(output).toString()).not.toContain('SPROUT_AGENT')
  })

  it('kills a command whose caller went away, with its whole group', async () => {
    const marker = path.join(workspace, 'still-running')
    const cut = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/run',
      headers: { authorization: `Bearer ${token}` },
    })
    cut.on('error', () => {})
    cut.end(JSON.stringify({ command: ['sh', '-c', `sleep 300 & echo $! > ${marker}; wait`] }))
    await waitFor(async () => (await readFile(marker, 'utf8').catch(() => '')).trim() !== '')
    const child = Number((await readFile(marker, 'utf8')).trim())
    cut.destroy()
    await waitFor(async () => {
      try {
        process.kill(child, 0)
        return false
      } catch {
        return true
      }
    })
  })

  it('keeps files inside the workspace: no `..`, no absolute path, no link followed', async () => {
    await mkdir(path.join(workspace, 'inside'))
    await symlink('/etc', path.join(workspace, 'inside', 'out'))
    for (const outside of ['../x', '/etc/passwd', 'inside/out/passwd', 'a\0b']) {
      await expect(client.files('read', { path: outside })).rejects.toThrow()
      await expect(client.files('write', { path: outside, content: 'x' })).rejects.toThrow()
    }
    await expect(client.pack('inside/out')).rejects.toThrow()
    await client.files('write', { path: 'new/\uD800lone.txt', content: 'lone \uDC00 surrogate' })
    expect(await client.files('read', { path: 'new/\uD800lone.txt' })).toBe('lone \uFFFD surrogate')
  })

  it('answers a malformed or unknown call with a 4xx and stays up', async () => {
    const auth = `Bearer ${token}`
    expect((await call({ path: '/run', body: '{not json', auth })).status).toBe(400)
    for (const body of [
      '{"command":[]}',
      '{"command":"touch ran"}',
      '{"command":["touch",1]}',
      '{"command":["touch","ran"],"env":{"A":1}}',
      '{"command":["touch","ran"],"stdin":[]}',
      'null',
    ]) {
      expect((await call({ path: '/run', body, auth })).status, body).toBe(400)
    }
    expect((await call({ path: '/files/read', body: '"hello.txt"', auth })).status).toBe(400)
    await expect(readFile(path.join(workspace, 'ran'))).rejects.toThrow()
    expect((await call({ path: '/files/../../x', body: '{}', auth })).status).toBe(404)
    expect((await call({ method: 'DELETE', path: '/run', auth })).status).toBe(404)
    const unknown = await call({ path: '/files/chmod', body: '{}', auth })
    expect(unknown.body).toContain('Unknown operation')
    // Past 256 MiB, said up front or streamed: 413 without reading the rest.
    expect(await sendHuge({ 'content-length': String(300 * 1024 * 1024) })).toBe(413)
    expect(await sendHuge({ 'transfer-encoding': 'chunked' })).toBe(413)
    await expect(readFile(path.join(workspace, 'huge.txt'))).rejects.toThrow()
    expect((await call({ method: 'GET', path: '/health' })).status).toBe(200)
  })
})
