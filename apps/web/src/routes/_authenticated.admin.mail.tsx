import { createFileRoute } from '@tanstack/react-router'
import { MailPanel } from '../features/mail/mail-panel.tsx'

export const Route = createFileRoute('/_authenticated/admin/mail')({
  component: MailPanel,
})
