import { CHECK_TEXTS, type CheckReport } from '@sprout/protocol/api/checks.ts'
import { useEffect, useId, useRef, useState } from 'react'
import { CheckReportView } from '../../components/checks/check-report-view.tsx'
import { problemsText, runningPartLabel } from '../../components/checks/check-status-text.ts'
import { Button } from '../../components/ui/button.tsx'
import { CheckIcon, WarningIcon } from '../../components/ui/icons.tsx'
import { Spinner } from '../../components/ui/spinner.tsx'
import { errorMessage } from '../../lib/error-message.ts'
import { useLatestCheck } from './use-latest-check.ts'

export const CHECK_STATUS_TEXTS = {
  passed: 'Checks passed',
  checkNow: 'Check now',
} as const

type CheckStatusProps = {
  applicationId: string
  /** A run of the builder's chat is going: its end brings a new check. */
  agentRunning: boolean
}

/**
 * The builder's header: the app's last check ('Checks passed', '2 problems', 'Checking…' and the
 * part under way, nothing when never checked) and Check now. '2 problems' opens the problems in a popover
 * (docs/product/checks.md "Shown on the run").
 */
export function CheckStatus({ applicationId, agentRunning }: CheckStatusProps) {
  const { latest, checkNow } = useLatestCheck(applicationId, agentRunning)
  const check = latest.data?.check ?? null
  const checking = checkNow.isPending || check?.state === 'running'
  // The stored check is the one under way: it names its part (Check now takes about 20 s).
  const part = check ? runningPartLabel(check) : null
  return (
    <div data-testid="check-status" className="relative flex items-center gap-1">
      {checking ? (
        <span role="status" className="flex items-center gap-1.5 px-2 text-sm text-zinc-600">
          <Spinner className="size-3 border" />
          <span>{CHECK_TEXTS.running}</span>
          {part && <span className="font-medium text-zinc-800">{part}</span>}
        </span>
      ) : check?.state === 'passed' ? (
        <span className="flex items-center gap-1 px-2 text-sm text-accent-700">
          <CheckIcon className="size-4" />
          {CHECK_STATUS_TEXTS.passed}
        </span>
      ) : check?.state === 'failed' ? (
        <ProblemsPopover check={check} />
      ) : null}
      <Button variant="ghost" size="sm" disabled={checking} onClick={() => checkNow.mutate()}>
        {CHECK_STATUS_TEXTS.checkNow}
      </Button>
      {checkNow.isError && (
        <p
          role="alert"
          className="absolute top-full right-0 z-20 mt-1 w-72 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700 shadow-sm"
        >
          {errorMessage(checkNow.error)}
        </p>
      )}
    </div>
  )
}

function ProblemsPopover({ check }: { check: CheckReport }) {
  const [open, setOpen] = useState(false)
  const panelId = useId()
  const buttonRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const close = (event: MouseEvent) => {
      const target = event.target as Node
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) {
        setOpen(false)
      }
    }
    // Escape closes it wherever the focus is (the button just clicked, or inside), and only it:
    // captured first, so the builder's Escape (use-escape-anywhere) does not interrupt the run.
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      event.stopPropagation()
      setOpen(false)
      buttonRef.current?.focus()
    }
    document.addEventListener('mousedown', close)
    document.addEventListener('keydown', closeOnEscape, true)
    return () => {
      document.removeEventListener('mousedown', close)
      document.removeEventListener('keydown', closeOnEscape, true)
    }
  }, [open])
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
        className="flex h-8 items-center gap-1 rounded-lg px-2 text-sm text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        <WarningIcon className="size-4" />
        {problemsText(check)}
      </button>
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          role="dialog"
          aria-label="Problems of the last check"
          className="absolute top-full right-0 z-20 mt-1 max-h-96 w-96 max-w-[90vw] overflow-y-auto rounded-xl shadow-lg"
        >
          <CheckReportView report={check} />
        </div>
      )}
    </>
  )
}
