import type { Integration } from '@sprout/protocol/api/integrations.ts'
import { classNames } from '../../lib/class-names.ts'

const presetColours: Record<string, string> = {
  linear: 'bg-indigo-600 text-white',
  'google-sheets': 'bg-emerald-600 text-white',
  hubspot: 'bg-orange-500 text-white',
}

/** A tile with the service's initial, in its preset's colour. */
export function IntegrationLogo({ integration }: { integration: Integration }) {
  const name = integration.display_name || integration.service_name
  return (
    <div
      aria-hidden="true"
      className={classNames(
        'flex size-10 shrink-0 items-center justify-center rounded-xl text-base font-semibold',
        (integration.preset && presetColours[integration.preset]) ?? 'bg-zinc-800 text-white',
      )}
    >
      {name.charAt(0).toUpperCase()}
    </div>
  )
}
