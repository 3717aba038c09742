/** A square, borderless button for a toolbar icon; links that look like one use it too. */
export const iconButtonClasses =
  'inline-flex size-8 shrink-0 items-center justify-center rounded-lg text-zinc-500 transition-colors hover:bg-zinc-200/70 hover:text-zinc-900 disabled:cursor-not-allowed disabled:text-zinc-300 disabled:hover:bg-transparent'
