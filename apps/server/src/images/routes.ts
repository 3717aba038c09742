import { CHAT_IMAGE_MAX_BYTES, IMAGE_TOO_LARGE_MESSAGE } from '@sprout/protocol/api/images.ts'
import { Hono } from 'hono'
import type { MembershipCache } from '../auth/auth-cache.ts'
import type { AppEnv } from '../http/app-env.ts'
import type { BinaryBody } from '../http/request-guards.ts'
import { requireOrganization } from '../organizations/require-organization.ts'
import { type ImageStore, readImageForMember, storeImage } from './service.ts'

/** The upload's body: the image's bytes, with a limit of their own (docs/product/images.md). */
export const imageUploadBody: BinaryBody = {
  path: '/api/images',
  maxBytes: CHAT_IMAGE_MAX_BYTES,
  tooLargeMessage: IMAGE_TOO_LARGE_MESSAGE,
}

/** Images attached to chat messages: uploaded into the current organization, read by its members. */
export function imageRoutes(options: { images: ImageStore; memberships: MembershipCache }) {
  const { images, memberships } = options
  const { db } = images
  const app = new Hono<AppEnv>()

  app.post('/api/images', requireOrganization(db, memberships), async (context) => {
    const bytes = Buffer.from(await context.req.arrayBuffer())
    const image = await storeImage(
      images,
      { organizationId: context.var.organization.id, userId: context.var.user.id },
      bytes,
    )
    return context.json(image, 201)
  })

  // An <img> sends no Organization-ID: the image's own organization is checked instead.
  app.get('/api/images/:id', async (context) => {
    const image = await readImageForMember(
      { ...images, userId: context.var.user.id, memberships },
      context.req.param('id'),
    )
    return context.body(new Uint8Array(image.bytes), 200, {
      'content-type': image.mediaType,
      'content-length': String(image.bytes.length),
      // Its bytes were read as an image at upload; the browser must not guess otherwise.
      'x-content-type-options': 'nosniff',
      // An id names one image for ever; members only, so never in a shared cache.
      'cache-control': 'private, max-age=86400, immutable',
    })
  })

  return app
}
