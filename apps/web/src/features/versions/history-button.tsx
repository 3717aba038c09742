import { Button } from '../../components/ui/button.tsx'

/** The preview toolbar's 'History' toggle, until the right pane has its tabs. */
export function HistoryButton({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <Button variant="ghost" size="sm" aria-pressed={open} onClick={onToggle}>
      History
    </Button>
  )
}
