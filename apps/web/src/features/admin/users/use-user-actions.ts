import type { AdminUser } from '@sprout/protocol/api/admin-users.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { adminUsersQueryKey } from './use-admin-users.ts'
import { doneTexts } from './user-texts.ts'
import { userActions } from './users-api.ts'

/** The actions asked about first: a confirmation, or the ban dialog's reason. */
export type AskedAction = 'make-admin' | 'remove-admin' | 'sign-out' | 'ban'
export type UserAction = AskedAction | 'unban' | 'reset-link' | 'reset-mail'

export type ActionStatus = { tone: 'success' | 'error'; text: string; link?: string }

type Request = { action: UserAction; user: AdminUser; reason?: string }

async function copied(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

async function perform({ action, user, reason }: Request): Promise<ActionStatus> {
  switch (action) {
    case 'make-admin':
      await userActions.setRole(user.id, 'admin')
      break
    case 'remove-admin':
      await userActions.setRole(user.id, 'user')
      break
    case 'ban':
      await userActions.ban(user.id, reason ?? '')
      break
    case 'unban':
      await userActions.unban(user.id)
      break
    case 'sign-out':
      await userActions.signOut(user.id)
      break
    case 'reset-mail':
      await userActions.resetMail(user.id)
      break
    case 'reset-link': {
      const link = await userActions.resetLink(user.id)
      return { tone: 'success', text: doneTexts['reset-link'](user, await copied(link)), link }
    }
  }
  return { tone: 'success', text: doneTexts[action](user) }
}

/**
 * A row's actions: those that ask first wait in `asking` for the confirmation (or the ban's
 * reason); what came of the last one is `status`, an error inside the open dialog is `error`.
 */
export function useUserActions() {
  const queryClient = useQueryClient()
  const [asking, setAsking] = useState<{ action: AskedAction; user: AdminUser } | null>(null)
  const [status, setStatus] = useState<ActionStatus | null>(null)
  const mutation = useMutation({
    mutationFn: perform,
    onSuccess: (done) => {
      setStatus(done)
      setAsking(null)
    },
    onError: (error, request) => {
      if (isAsked(request.action)) return
      setStatus({ tone: 'error', text: error.message })
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUsersQueryKey }),
  })

  const choose = (action: UserAction, user: AdminUser) => {
    mutation.reset()
    setStatus(null)
    if (isAsked(action)) setAsking({ action, user })
    else mutation.mutate({ action, user })
  }
  const confirm = (reason?: string) => {
    if (asking) mutation.mutate({ ...asking, reason })
  }
  const cancel = () => {
    if (mutation.isPending) return
    mutation.reset()
    setAsking(null)
  }
  return {
    asking,
    status,
    busy: mutation.isPending,
    error: asking && mutation.error ? mutation.error.message : undefined,
    choose,
    confirm,
    cancel,
  }
}

function isAsked(action: UserAction): action is AskedAction {
  return (
    action === 'make-admin' ||
    action === 'remove-admin' ||
    action === 'sign-out' ||
    action === 'ban'
  )
}
