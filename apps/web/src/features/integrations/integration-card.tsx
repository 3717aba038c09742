import type { Integration } from '@sprout/protocol/api/integrations.ts'
import { Button } from '../../components/ui/button.tsx'
import { classNames } from '../../lib/class-names.ts'
import { integrationSubtitle, isSpreadsheetIntegration } from './integration-display.ts'
import { IntegrationLogo } from './integration-logo.tsx'

type IntegrationCardProps = {
  integration: Integration
  busy: boolean
  onConnect: () => void
  onDisconnect: () => void
  onSelectFiles: () => void
}

/** One entry of the settings grid (docs/product/integrations.md "Settings screen"). */
export function IntegrationCard({
  integration,
  busy,
  onConnect,
  onDisconnect,
  onSelectFiles,
}: IntegrationCardProps) {
  const name = integration.display_name || integration.service_name
  const connected = integration.connected && !integration.needs_reconnect
  return (
    <li
      aria-label={name}
      className="flex flex-col gap-4 rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm"
    >
      <div className="flex items-start gap-3">
        <IntegrationLogo integration={integration} />
        <div className="min-w-0 flex-1">
          <h3 className="truncate text-sm font-semibold text-zinc-900">{name}</h3>
          <p className="truncate text-xs text-zinc-500" title={integrationSubtitle(integration)}>
            {integrationSubtitle(integration)}
          </p>
        </div>
        <span
          data-testid="integration-status"
          className={classNames(
            'shrink-0 rounded-full px-2 py-0.5 text-xs font-medium',
            connected ? 'bg-accent-50 text-accent-700' : 'bg-zinc-100 text-zinc-600',
          )}
        >
          {connected ? 'Connected' : 'Not Connected'}
        </span>
      </div>
      {integration.needs_reconnect && (
        <p className="text-xs text-amber-700">
          The authorization expired or was revoked: connect again.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {!connected && (
          <Button size="sm" onClick={onConnect} disabled={busy}>
            Connect
          </Button>
        )}
        {integration.connected && (
          <Button variant="danger" size="sm" onClick={onDisconnect} disabled={busy}>
            Disconnect
          </Button>
        )}
        {connected && isSpreadsheetIntegration(integration) && (
          <Button variant="secondary" size="sm" onClick={onSelectFiles} disabled={busy}>
            Select Files
          </Button>
        )}
      </div>
    </li>
  )
}
