import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'

/** The footer line of the sign-in and sign-up cards that leads to the other one. */
export function AuthSwitchLink({
  question,
  to,
  redirect,
  children,
}: {
  question: string
  to: '/signin' | '/signup'
  redirect: string | undefined
  children: ReactNode
}) {
  return (
    <>
      {question}{' '}
      <Link to={to} search={{ redirect }} className="font-medium text-accent-700 hover:underline">
        {children}
      </Link>
    </>
  )
}
