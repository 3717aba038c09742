import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { authClient, unwrapAuthResult } from '../../lib/auth-client.ts'
import { EmailField } from './auth-form.tsx'
import { authTexts } from './auth-texts.ts'

/** 'Forgot password?': the same answer whether or not the address has an account. */
export function ForgotPasswordForm({ mailConfigured }: { mailConfigured: boolean }) {
  const [email, setEmail] = useState('')
  const request = useMutation({
    mutationFn: async (address: string) => {
      await unwrapAuthResult(authClient.requestPasswordReset({ email: address }))
      return address
    },
  })
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    request.mutate(email.trim())
  }
  if (!mailConfigured) return <Alert tone="info">{authTexts.forgotNoMail}</Alert>
  if (request.data) return <Alert tone="success">{authTexts.forgotSent(request.data)}</Alert>
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      {request.error && <Alert>{request.error.message}</Alert>}
      <EmailField value={email} onValue={setEmail} autoFocus />
      <Button type="submit" disabled={request.isPending} className="mt-2 w-full">
        {request.isPending ? 'Sending...' : authTexts.forgotSubmit}
      </Button>
    </form>
  )
}
