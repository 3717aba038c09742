import { Link } from '@tanstack/react-router'

const tabs = [
  { to: '/admin', label: 'Integrations' },
  { to: '/admin/evals', label: 'Conversation Evaluations' },
  { to: '/admin/pool', label: 'Devbox Pool' },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/mail', label: 'Mail' },
  { to: '/admin/audit', label: 'Audit' },
  { to: '/admin/access', label: 'Access' },
] as const

export function AdminTabs() {
  return (
    <nav aria-label="Admin sections" className="mb-6 overflow-x-auto border-b border-zinc-200">
      <ul className="flex min-w-max gap-1">
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link
              to={tab.to}
              activeOptions={{ exact: tab.to === '/admin', includeSearch: false }}
              className="-mb-px inline-block border-b-2 border-transparent px-3 py-2.5 text-sm font-medium text-zinc-500 transition-colors hover:text-zinc-900 data-[status=active]:border-zinc-900 data-[status=active]:text-zinc-900"
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
