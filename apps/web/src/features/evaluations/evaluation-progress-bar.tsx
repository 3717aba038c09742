/** The overall progress of an evaluation: a bar and 'n / total complete'. */
export function EvaluationProgressBar({ completed, total }: { completed: number; total: number }) {
  const percent = total > 0 ? Math.round((completed / total) * 100) : 0
  return (
    <div className="flex flex-col gap-1.5">
      <div
        role="progressbar"
        aria-label="Evaluation progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={completed}
        className="h-2 overflow-hidden rounded-full bg-zinc-100"
      >
        <div
          className="h-full rounded-full bg-accent-500 transition-[width]"
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="text-sm tabular-nums text-zinc-600" data-testid="evaluation-progress-text">
        {completed} / {total} complete
      </p>
    </div>
  )
}
