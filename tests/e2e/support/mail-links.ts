import { expect } from '@playwright/test'
import type { SmtpPeer } from '@sprout/server/testing/smtp-peer.ts'

/**
 * The confirmation link mailed to `email` (Sprout's own or an app's, through Sprout), once it has
 * arrived: quoted-printable soft breaks and `=3D` undone.
 */
export async function confirmationLinkFor(smtp: SmtpPeer, email: string): Promise<string> {
  let link: string | undefined
  await expect
    .poll(
      () => {
        const mail = smtp.received.findLast((message) => message.to.includes(email))
        const text = (mail?.raw ?? '').replace(/=\r\n/g, '').replace(/=3D/g, '=')
        link = /https?:\/\/[^\s"<>]+\/api\/auth\/verify-email\?[^\s"<>]+/.exec(text)?.[0]
        return link
      },
      { timeout: 30_000 },
    )
    .toBeDefined()
  return (link ?? '').replaceAll('&amp;', '&')
}
