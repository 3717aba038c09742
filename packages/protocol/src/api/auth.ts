import { z } from 'zod'
import { boundedText, EMAIL_MAX, idText, maxText, URL_MAX } from './input-limits.ts'

// Bodies of the better-auth endpoints the screens use (apps/server/src/auth/auth-endpoints.ts):
// checked for sizes before better-auth stores them; better-auth checks the rest itself.

export const USER_NAME_MAX = 100
/** better-auth's own maximum (maxPasswordLength); no account has a longer one. */
export const PASSWORD_MAX = 128
/** The organization form's maxLength. */
export const ORGANIZATION_NAME_MAX = 80
export const ORGANIZATION_SLUG_MAX = 64
/** Serialised as JSON: better-auth stores it as text. */
export const ORGANIZATION_METADATA_MAX = 16 * 1024
export const ROLE_MAX = 50

const email = boundedText(EMAIL_MAX)
const password = boundedText(PASSWORD_MAX)
const url = boundedText(URL_MAX)
const roles = z.union([boundedText(ROLE_MAX), z.array(boundedText(ROLE_MAX)).max(10)])

export const authRequestSchemas: Record<string, z.ZodType> = {
  '/sign-up/email': z.looseObject({
    name: boundedText(USER_NAME_MAX).optional(),
    email: email.optional(),
    password: password.optional(),
    image: url.nullish(),
    callbackURL: url.optional(),
  }),
  '/sign-in/email': z.looseObject({
    email: email.optional(),
    password: password.optional(),
    callbackURL: url.optional(),
  }),
  '/request-password-reset': z.looseObject({
    email: email.optional(),
    redirectTo: url.optional(),
  }),
  '/reset-password': z.looseObject({
    newPassword: password.optional(),
    token: boundedText(200).optional(),
  }),
  '/send-verification-email': z.looseObject({
    email: email.optional(),
    callbackURL: url.optional(),
  }),
  '/sign-in/social': z.looseObject({
    provider: boundedText(64).optional(),
    callbackURL: url.optional(),
    errorCallbackURL: url.optional(),
    newUserCallbackURL: url.optional(),
  }),
  '/update-user': z.looseObject({
    name: boundedText(USER_NAME_MAX).optional(),
    image: url.nullish(),
  }),
  '/change-email': z.looseObject({
    newEmail: email.optional(),
    callbackURL: url.optional(),
  }),
  '/change-password': z.looseObject({
    currentPassword: password.optional(),
    newPassword: password.optional(),
    revokeOtherSessions: z.boolean().optional(),
  }),
  '/organization/create': z.looseObject({
    name: boundedText(ORGANIZATION_NAME_MAX).optional(),
    slug: boundedText(ORGANIZATION_SLUG_MAX).optional(),
    logo: url.nullish(),
    metadata: z
      .record(z.string(), z.unknown())
      .refine(
        (metadata) => JSON.stringify(metadata).length <= ORGANIZATION_METADATA_MAX,
        maxText(ORGANIZATION_METADATA_MAX),
      )
      .nullish(),
    userId: idText().optional(),
  }),
  '/organization/set-active': z.looseObject({
    organizationId: idText().nullish(),
    organizationSlug: boundedText(ORGANIZATION_SLUG_MAX).nullish(),
  }),
  '/organization/invite-member': z.looseObject({
    email: email.optional(),
    role: roles.optional(),
    organizationId: idText().optional(),
    teamId: idText().optional(),
  }),
  '/organization/accept-invitation': z.looseObject({ invitationId: idText().optional() }),
  '/organization/reject-invitation': z.looseObject({ invitationId: idText().optional() }),
  '/organization/cancel-invitation': z.looseObject({ invitationId: idText().optional() }),
  '/organization/leave': z.looseObject({ organizationId: idText().optional() }),
}
