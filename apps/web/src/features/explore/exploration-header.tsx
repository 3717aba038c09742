import { Link } from '@tanstack/react-router'
import { Button, buttonClasses } from '../../components/ui/button.tsx'
import { BackIcon } from '../../components/ui/icons.tsx'

type ExplorationHeaderProps = {
  /** Opens home's create dialog with the idea; absent until there is an idea to build. */
  onBuild?: () => void
}

/**
 * docs/product/exploration.md: the header with a way back home and, once there is an idea, to build
 * it.
 */
export function ExplorationHeader({ onBuild }: ExplorationHeaderProps) {
  return (
    <header className="flex items-center gap-3 border-b border-zinc-200 bg-white px-4 py-3">
      <Link to="/" className={buttonClasses('ghost', 'sm')} aria-label="Back">
        <BackIcon />
        Back
      </Link>
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-base font-semibold text-zinc-900">Exploration Mode</h1>
        <p className="truncate text-sm text-zinc-500">Let's figure out what you want to build</p>
      </div>
      <Button size="sm" onClick={onBuild} disabled={!onBuild}>
        Build this
      </Button>
    </header>
  )
}
