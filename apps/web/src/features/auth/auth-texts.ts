// docs/product/auth.md "Password reset", "Email verification", "The first admin": word for word.

export const authTexts = {
  forgotLink: 'Forgot password?',
  forgotTitle: 'Reset your password',
  forgotSubtitle: "Enter your account's email and we will send you a link to set a new password.",
  forgotSubmit: 'Send reset link',
  forgotSent: (email: string) =>
    `If an account exists for ${email}, a link to reset its password is on its way. It works for one hour.`,
  forgotNoMail:
    'Mail is not configured on this installation. Ask an admin to copy a reset link for you from the Users tab.',
  resetTitle: 'Choose a new password',
  resetSubtitle: 'Every other session of your account is signed out when you save it.',
  resetSubmit: 'Save new password',
  resetMismatch: 'The two passwords are not the same.',
  resetInvalid: 'This reset link is invalid or has expired. Ask for a new one.',
  resetDone: 'Your password was changed. Sign in with the new one.',
  confirmPassword: 'Confirm password',
  verificationSent: (email: string) =>
    `We sent a link to ${email}. Open it to confirm your address, then you are signed in.`,
  setupTitle: 'Set up Sprout',
  setupSubtitle: 'Create the admin account of this installation.',
  setupClaim: (email: string) => `Make ${email} the admin`,
  setupInvalid:
    'This setup link is not valid. Use the link from the most recent start of the server.',
  setupAdminExists: 'This installation already has an admin. Ask them for access.',
  signUpClosed: 'Sign-up is closed on this installation. Ask an admin for an invitation.',
  signUpInvite:
    'Sign-up on this installation is by invitation. Ask an admin or an organization owner to invite you.',
  signUpDomains: (domains: string[]) =>
    `Sign-up is open to addresses at ${domains.join(', ')} only.`,
}
