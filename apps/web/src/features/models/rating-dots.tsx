const MAX_RATING = 5

export function RatingDots({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd
        className="flex gap-1"
        role="img"
        aria-label={`${label}: ${value} out of ${MAX_RATING}`}
        data-rating={value}
      >
        {Array.from({ length: MAX_RATING }, (_, index) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: the dots are fixed positions
            key={index}
            className={`size-2 rounded-full ${index < value ? 'bg-accent-500' : 'bg-zinc-200'}`}
          />
        ))}
      </dd>
    </div>
  )
}
