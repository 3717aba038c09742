import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { APP_MAIL_OFF_TEXT, APP_MAIL_PATH } from '@sprout/protocol/api/app-mail.ts'

export type RelayedMail = { to: string; subject: string; text: string }

/**
 * Sprout's internal mail route as an app's server sees it (`POST ${SPROUT_INTERNAL_URL}/mail`,
 * `authorization: Bearer <app token>`): 202 `{ queued: true }` and the mail kept in `mails`, or
 * 503 `{ error, mail: 'off' }` while `mailOn` is false. A wrong token gets 401 and is counted.
 */
export async function startFakeMailRelay(appToken: string) {
  const mails: RelayedMail[] = []
  const relay = { mails, mailOn: true, refusedTokens: 0, url: '', close: async () => {} }
  const server = createServer(async (request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (request.method !== 'POST' || request.url !== APP_MAIL_PATH)
      return answer(404, { error: 'No route' })
    if (request.headers.authorization !== `Bearer ${appToken}`) {
      relay.refusedTokens += 1
      return answer(401, { error: 'Unknown app token' })
    }
    const mail = JSON.parse(await readBody(request)) as RelayedMail
    if (!relay.mailOn) return answer(503, { error: APP_MAIL_OFF_TEXT, mail: 'off' })
    mails.push(mail)
    answer(202, { queued: true })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  relay.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return relay
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of request) body += chunk
  return body
}
