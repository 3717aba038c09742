import net from 'node:net'
import { SMTPServer, type SMTPServerOptions } from 'smtp-server'

/** A message as the SMTP server received it: the envelope and the raw bytes of DATA. */
export type ReceivedMail = { from: string; to: string[]; raw: string; user: string | undefined }

/** The headers of a raw message, unfolded, as `name: value` lines in their order. */
export function headerLines(raw: string): string[] {
  const head = raw.split('\r\n\r\n')[0] ?? ''
  return head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')
}

/**
 * A real SMTP server on 127.0.0.1 for tests (smtp-server): it keeps what it receives, asks for
 * a login when `login` is given, and refuses every message with a 550 while `refuse` is set.
 */
export async function startSmtpPeer(
  options: { port?: number; login?: { user: string; password: string }; secure?: boolean } = {},
) {
  const received: ReceivedMail[] = []
  const waiting = new Set<() => void>()
  let refusal: string | undefined
  const { login } = options
  const serverOptions: SMTPServerOptions = {
    logger: false,
    secure: options.secure ?? false,
    disabledCommands: options.secure ? [] : ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: login === undefined,
    onAuth: (auth, _session, callback) => {
      if (auth.username === login?.user && auth.password === login?.password) {
        callback(null, { user: auth.username })
      } else {
        callback(new Error('Invalid username or password'))
      }
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (refusal !== undefined) {
          return callback(Object.assign(new Error(refusal), { responseCode: 550 }))
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : undefined,
        })
        for (const notify of waiting) notify()
        callback()
      })
    },
  }
  const server = new SMTPServer(serverOptions)
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const address = server.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    port,
    url: `${options.secure ? 'smtps' : 'smtp'}://127.0.0.1:${port}`,
    received,
    /** Every message from now on is answered `550 {text}` until `accept()`. */
    refuse: (text: string) => {
      refusal = text
    },
    accept: () => {
      refusal = undefined
    },
    /** Resolves once `count` messages have arrived in all. */
    waitForMessages: (count: number, timeoutMs = 20_000) =>
      new Promise<ReceivedMail[]>((resolve, reject) => {
        const check = () => {
          if (received.length < count) return
          waiting.delete(check)
          clearTimeout(timer)
          resolve(received)
        }
        const timer = setTimeout(() => {
          waiting.delete(check)
          reject(new Error(`${received.length} of ${count} messages arrived`))
        }, timeoutMs)
        waiting.add(check)
        check()
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type SmtpPeer = Awaited<ReturnType<typeof startSmtpPeer>>

/** A server that accepts connections and never says a word (a mail server that hangs). */
export async function startSilentServer() {
  const sockets = new Set<net.Socket>()
  let opened = 0
  const server = net.createServer((socket) => {
    opened++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** How many connections were opened so far. */
    connections: () => opened,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
