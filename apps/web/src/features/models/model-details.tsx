import { formatPrice, type Model, providerGroupLabels } from '@sprout/protocol/models.ts'
import { RatingDots } from './rating-dots.tsx'

const priceRows = [
  { label: 'Input', price: (model: Model) => model.inputPrice },
  { label: 'Output', price: (model: Model) => model.outputPrice },
  { label: 'Cache Read', price: (model: Model) => model.cacheReadPrice },
  { label: 'Cache Write', price: (model: Model) => model.cacheWritePrice },
]

/** The hover card of the model selector: description, ratings and prices. */
export function ModelDetails({ model }: { model: Model }) {
  return (
    <div data-testid="model-details" className="flex flex-col gap-4">
      <div>
        <p className="text-sm font-semibold text-zinc-900">{model.name}</p>
        <p className="text-xs text-zinc-500">{providerGroupLabels[model.provider]}</p>
        <p className="mt-2 text-sm text-zinc-600">{model.description}</p>
        {!model.available && model.unavailableReason && (
          <p className="mt-2 rounded-lg bg-amber-50 px-2 py-1.5 text-xs text-amber-800">
            {model.unavailableReason}
          </p>
        )}
      </div>
      <dl className="flex flex-col gap-1.5">
        <RatingDots label="Performance" value={model.performance} />
        <RatingDots label="Speed" value={model.speed} />
        <RatingDots label="Reasoning" value={model.reasoning} />
      </dl>
      <div>
        <p className="mb-1.5 text-xs font-medium text-zinc-700">
          Price <span className="font-normal text-zinc-500">per million tokens</span>
        </p>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1">
          {priceRows.map((row) => (
            <div key={row.label} className="flex items-center justify-between gap-2">
              <dt className="text-xs text-zinc-500">{row.label}</dt>
              <dd className="text-xs font-medium text-zinc-800 tabular-nums">
                {formatPrice(row.price(model))}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  )
}
