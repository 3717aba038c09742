import { useMutation } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { Button } from '../../components/ui/button.tsx'
import { createExploration } from './exploration-api.ts'

/** Home's way into exploration mode: starts an empty exploration and opens it. */
export function ExploreIdeaButton({ model }: { model?: string }) {
  const navigate = useNavigate()
  const start = useMutation({
    mutationFn: () => createExploration(model ? { model } : {}),
    onSuccess: ({ id }) => navigate({ to: '/explore/$id', params: { id } }),
  })
  return (
    <Button
      variant="secondary"
      onClick={() => start.mutate()}
      disabled={start.isPending}
      title={
        start.error ? start.error.message : 'Brainstorm an idea with the agent before building'
      }
    >
      {start.isPending ? 'Starting...' : 'Explore an idea'}
    </Button>
  )
}
