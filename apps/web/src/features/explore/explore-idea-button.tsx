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
    <span className="relative inline-flex">
      <Button
        variant="secondary"
        onClick={() => start.mutate()}
        disabled={start.isPending}
        title="Brainstorm an idea with the agent before building"
      >
        {start.isPending ? 'Starting...' : 'Explore an idea'}
      </Button>
      {start.error && (
        <p
          role="alert"
          className="absolute top-full right-0 z-10 mt-2 w-72 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-left text-sm text-red-700 shadow-sm"
        >
          Could not start an exploration: {start.error.message}
        </p>
      )}
    </span>
  )
}
