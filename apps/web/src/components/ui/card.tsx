import type { HTMLAttributes } from 'react'
import { classNames } from '../../lib/class-names.ts'

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={classNames('rounded-2xl border border-zinc-200 bg-white shadow-sm', className)}
      {...props}
    />
  )
}
