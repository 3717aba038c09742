import {
  type BrowserToolOutput,
  parseBrowserToolOutput,
} from '@sprout/protocol/tool-formats/browser.ts'
import { ZoomableImage } from '../../../components/ui/zoomable-image.tsx'
import { OutputBlock, OutputLabel } from './output-block.tsx'
import { toolOutputText } from './tool-output-text.ts'

type BrowserAction = { action?: string; role?: string; name?: string; value?: string; key?: string }

/** One action as people read it: `click button "Plant it"`, `fill textbox "Note" with "hi"`. */
export function describeBrowserAction(action: BrowserAction): string {
  const target = action.role
    ? `${action.role}${action.name ? ` "${action.name}"` : ''}`
    : 'the page'
  if (action.action === 'fill') return `fill ${target} with "${action.value ?? ''}"`
  if (action.action === 'press') return `press ${action.key ?? ''} on ${target}`
  return `click ${target}`
}

function actionsOf(input: unknown): BrowserAction[] {
  const actions =
    typeof input === 'object' && input !== null ? (input as { actions?: unknown }).actions : []
  return Array.isArray(actions)
    ? actions.filter((each): each is BrowserAction => typeof each === 'object' && each !== null)
    : []
}

/**
 * docs/product/tool-calls.md "browser": the page the agent opened, what it did there, the
 * screenshot (click to enlarge), console errors and failed requests; the snapshot on demand.
 */
export function BrowserView({ input, output }: { input: unknown; output: unknown }) {
  const page = parseBrowserToolOutput(output)
  if (!page) return <OutputBlock text={toolOutputText(output)} />
  const actions = actionsOf(input)
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p className="text-zinc-700">
        <span className="font-mono text-xs">{page.url}</span>
        {page.title && <span className="text-zinc-500"> — {page.title}</span>}
        <span className="text-xs text-zinc-400"> · {(page.duration_ms / 1000).toFixed(1)} s</span>
      </p>
      {actions.length > 0 && (
        <ol aria-label="Actions" className="list-decimal pl-5 text-xs text-zinc-700">
          {actions.map((action, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the actions are a fixed list
            <li key={index} className={index >= page.actions_done ? 'text-zinc-400' : undefined}>
              {describeBrowserAction(action)}
            </li>
          ))}
        </ol>
      )}
      {page.action_error && <p className="text-xs text-red-700">{page.action_error}</p>}
      <BrowserScreenshot page={page} />
      <ProblemList title="Console errors" entries={page.console_errors} />
      <ProblemList title="Failed requests" entries={page.failed_requests} />
      {page.blocked.length > 0 && (
        <ProblemList title="Blocked (not the app)" entries={page.blocked} />
      )}
      <details>
        <summary className="cursor-pointer text-xs font-medium text-zinc-500">
          Accessibility snapshot
        </summary>
        <OutputBlock text={page.snapshot || '(empty page)'} label="Accessibility snapshot" />
      </details>
    </div>
  )
}

function BrowserScreenshot({ page }: { page: BrowserToolOutput }) {
  const shot = page.screenshot
  if (!shot?.id) return null
  return (
    <ZoomableImage
      image={{ id: shot.id, width: shot.width, height: shot.height }}
      description={`Screenshot of ${page.url}`}
      viewerTitle="Screenshot"
      className="w-64 rounded-lg"
      imageClassName="h-auto w-full"
    />
  )
}

function ProblemList({ title, entries }: { title: string; entries: string[] }) {
  if (entries.length === 0) return <p className="text-xs text-zinc-500">{title}: none</p>
  return (
    <div className="flex flex-col gap-1">
      <OutputLabel>{title}</OutputLabel>
      <ul aria-label={title} className="flex flex-col gap-0.5 font-mono text-xs text-red-800">
        {entries.map((entry, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: entries may repeat
          <li key={index} className="break-all">
            {entry}
          </li>
        ))}
      </ul>
    </div>
  )
}
