import { classNames } from '../../lib/class-names.ts'

export function Spinner({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={classNames(
        'inline-block size-5 motion-safe:animate-spin rounded-full border-2 border-zinc-200 border-t-accent-600',
        className,
      )}
    />
  )
}

/** A spinner centred in the page with a line of text under it. */
export function CenteredSpinner({ label }: { label: string }) {
  return (
    <div role="status" className="flex min-h-[60vh] flex-col items-center justify-center gap-4">
      <Spinner className="size-8" />
      <p className="text-sm text-zinc-500">{label}</p>
    </div>
  )
}
