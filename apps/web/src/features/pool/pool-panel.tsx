import { POOL_STATS_POLL_INTERVAL_MS } from '@sprout/protocol/constants.ts'
import { useState } from 'react'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { classNames } from '../../lib/class-names.ts'
import { ConfinementCard } from './confinement-card.tsx'
import { useCyclePool } from './use-cycle-pool.ts'
import { usePoolStats } from './use-pool-stats.ts'

const refreshSeconds = POOL_STATS_POLL_INTERVAL_MS / 1000

/** docs/product/admin.md "Devbox Pool tab": the pool's counters per pack type, and cycling it. */
export function PoolPanel() {
  const stats = usePoolStats()
  const cycle = useCyclePool()
  const [toCycle, setToCycle] = useState<string | undefined>()

  const confirmCycle = () => {
    if (!toCycle) return
    cycle.mutate(toCycle, {
      onSuccess: () => setToCycle(undefined),
      onError: (error) => {
        setToCycle(undefined)
        window.alert(`Failed to cycle pool: ${error.message}`)
      },
    })
  }

  return (
    <section aria-labelledby="devbox-pool-heading">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id="devbox-pool-heading" className="text-lg font-semibold text-zinc-900">
            Devbox Pool
          </h2>
          <p className="text-sm text-zinc-500">
            Ready devboxes are handed to new applications at once.
          </p>
        </div>
        <p className="flex items-center gap-2 text-xs text-zinc-500">
          {stats.isFetching && <Spinner className="size-3" />}
          Stats refresh every {refreshSeconds} seconds
        </p>
      </div>

      {stats.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-6" />
        </div>
      ) : stats.isError ? (
        <Alert>{stats.error.message}</Alert>
      ) : (
        <div className="flex flex-col gap-6">
          <dl className="grid gap-4 sm:grid-cols-2">
            <Counter label="Provisioning" value={stats.data.global.provisioning} />
            <Counter
              label="Failed"
              value={stats.data.global.failed}
              warn={stats.data.global.failed > 0}
            />
          </dl>
          <div className="overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-sm">
            <table className="w-full text-left text-sm">
              <thead className="border-b border-zinc-100 bg-zinc-50/60 text-xs text-zinc-500">
                <tr>
                  <th scope="col" className="px-4 py-2.5 font-medium">
                    Pack type
                  </th>
                  <th scope="col" className="px-4 py-2.5 font-medium">
                    Ready/Target
                  </th>
                  <th scope="col" className="px-4 py-2.5">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-100">
                {Object.entries(stats.data.packs).map(([packType, pack]) => (
                  <tr key={packType} aria-label={packType}>
                    <td className="px-4 py-3 font-mono text-[13px] text-zinc-800">{packType}</td>
                    <td className="px-4 py-3">
                      <span
                        data-testid={`pool-ready-${packType}`}
                        className={classNames(
                          'font-medium tabular-nums',
                          pack.ready < pack.target ? 'text-amber-700' : 'text-zinc-900',
                        )}
                      >
                        {pack.ready}/{pack.target}
                      </span>
                    </td>
                    <td className="px-4 py-3 text-right">
                      <Button variant="secondary" size="sm" onClick={() => setToCycle(packType)}>
                        Cycle Pool
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {Object.keys(stats.data.packs).length === 0 && (
              <p className="px-4 py-6 text-center text-sm text-zinc-500">No pack types</p>
            )}
          </div>
          {stats.data.confinement && <ConfinementCard confinement={stats.data.confinement} />}
        </div>
      )}

      <ConfirmDialog
        open={toCycle !== undefined}
        title="Cycle Pool"
        message={
          <>
            <p>{`Cycle the "${toCycle ?? ''}" pool?`}</p>
            <p className="mt-1">
              All ready devboxes will be deleted and recreated. Devboxes in use by applications are
              not affected.
            </p>
          </>
        }
        confirmLabel="Cycle Pool"
        busyLabel="Cycling..."
        busy={cycle.isPending}
        tone="primary"
        onConfirm={confirmCycle}
        onCancel={() => setToCycle(undefined)}
      />
    </section>
  )
}

function Counter({ label, value, warn }: { label: string; value: number; warn?: boolean }) {
  return (
    <div className="rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-zinc-500">{label}</dt>
      <dd
        data-testid={`pool-${label.toLowerCase()}`}
        className={classNames(
          'mt-1 text-3xl font-semibold tracking-tight tabular-nums',
          warn ? 'text-red-600' : 'text-zinc-900',
        )}
      >
        {value}
      </dd>
    </div>
  )
}
