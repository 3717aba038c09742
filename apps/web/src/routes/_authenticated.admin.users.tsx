import { createFileRoute } from '@tanstack/react-router'
import { UsersPanel } from '../features/admin/users/users-panel.tsx'

export const Route = createFileRoute('/_authenticated/admin/users')({
  component: UsersPanel,
})
