import type { SignInOptions } from '@sprout/protocol/api/access.ts'
import { authTexts } from './auth-texts.ts'

/** The line /signup shows above the form when not everybody may sign up; invited people still may. */
export function signUpRuleText(options: SignInOptions): string | undefined {
  if (options.signUp === 'closed') return authTexts.signUpClosed
  if (options.signUp === 'invite') return authTexts.signUpInvite
  if (options.signUpDomains.length > 0) return authTexts.signUpDomains(options.signUpDomains)
  return undefined
}
