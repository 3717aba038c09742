/** Where the compact error list goes once error monitoring lands; it shows no errors before. */
export function PreviewErrorsPlaceholder() {
  return (
    <section
      aria-label="Errors"
      className="rounded-lg border border-dashed border-zinc-200 px-3 py-2.5 text-xs text-zinc-400"
    >
      <p className="font-medium text-zinc-500">Errors</p>
      <p className="mt-0.5">Error monitoring is coming soon.</p>
    </section>
  )
}
