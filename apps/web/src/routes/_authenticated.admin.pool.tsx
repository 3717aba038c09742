import { createFileRoute } from '@tanstack/react-router'
import { PoolPanel } from '../features/pool/pool-panel.tsx'

export const Route = createFileRoute('/_authenticated/admin/pool')({
  component: PoolPanel,
})
