import type { DevboxConfinement } from '@sprout/protocol/api/applications.ts'

const enforcementLabels: [keyof DevboxConfinement['enforcement'], string][] = [
  ['filesystem', 'Files'],
  ['network', 'Network'],
  ['user', 'User'],
  ['pids', 'Processes'],
  ['memory', 'Memory'],
  ['cpu', 'CPU'],
  ['disk', 'Disk'],
  ['syscalls', 'System calls'],
  ['node', 'Node'],
]

/** A part this server does not enforce, or a box Node that is not the server's. */
const isWeak = (text: string) => text.startsWith('not enforced') || text.startsWith('MISMATCH')

/** The limits every devbox runs under, and what enforces each on this server. */
export function ConfinementCard({ confinement }: { confinement: DevboxConfinement }) {
  const { limits, enforcement } = confinement
  const number = (value: number) => value.toLocaleString('en-US')
  return (
    <section
      aria-labelledby="devbox-limits-heading"
      className="rounded-2xl border border-zinc-200 bg-white p-4 shadow-sm"
    >
      <h3 id="devbox-limits-heading" className="text-sm font-semibold text-zinc-900">
        Limits per devbox
      </h3>
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-4" data-testid="devbox-limits">
        <Limit label="Processes" value={number(limits.pids)} />
        <Limit label="Memory" value={`${number(limits.memoryMb)} MB`} />
        <Limit label="CPU" value={`${number(limits.cpus)} CPU`} />
        <Limit label="Disk" value={`${number(limits.diskMb)} MB`} />
      </dl>
      <dl className="mt-4 grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[auto_1fr]">
        {enforcementLabels.map(([key, label]) => (
          <div key={key} className="contents">
            <dt className="text-zinc-500">{label}</dt>
            <dd
              data-testid={`enforcement-${key}`}
              className={isWeak(enforcement[key]) ? 'text-amber-700' : 'text-zinc-800'}
            >
              {enforcement[key]}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

function Limit({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-zinc-500">{label}</dt>
      <dd className="font-medium tabular-nums text-zinc-900">{value}</dd>
    </div>
  )
}
