import { isErrorFixRequest } from '@sprout/protocol/text/error-fix-request.ts'
import { parseErrorReports } from '@sprout/protocol/tool-formats/error-reports.ts'
import type { DemoConversation } from './demo-conversation.ts'
import { type DemoStep, failedToolStep, nextScriptStep, writeFileStep } from './demo-steps.ts'

/**
 * The Demo model's error loop (docs/product/error-monitoring.md "Agent tools"): "Build a counter
 * with a bug" writes a button that throws; "Fix the error" (or 'Ask agent to fix') reads it, fixes
 * it and resolves its group.
 */

export const buggyCounterPath = 'src/App.tsx'

/** Without a shared history the parsed one is `{}`, and `entries` is undefined. */
export const counterBug = 'const saved = history.entries.length'
export const counterFix = 'const saved = history.entries?.length ?? 0'
/** What the browser reports when 'Show history' is clicked. */
export const counterBugMessage = "Cannot read properties of undefined (reading 'length')"

export const buggyCounter = `import { useState } from 'react'

type SavedHistory = { entries: number[] }

// The counts shared in the link, e.g. ?history={"entries":[3,5]}.
function readHistory(): SavedHistory {
  const shared = new URLSearchParams(window.location.search).get('history')
  return JSON.parse(shared ?? '{}') as SavedHistory
}

export function App() {
  const [count, setCount] = useState(0)
  const [summary, setSummary] = useState('')

  function showHistory() {
    const history = readHistory()
    ${counterBug}
    setSummary(\`\${saved} saved counts\`)
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-6 px-6">
      <h1 className="text-4xl font-semibold tracking-tight">Counter</h1>
      <p aria-label="Count" className="text-7xl font-bold tabular-nums">{count}</p>
      <div className="flex gap-3">
        <button type="button" onClick={() => setCount((value) => value - 1)} className="rounded-lg border px-5 py-2 text-xl">−</button>
        <button type="button" onClick={() => setCount((value) => value + 1)} className="rounded-lg bg-emerald-600 px-5 py-2 text-xl text-white">+</button>
      </div>
      <button type="button" onClick={showHistory} className="text-sm text-stone-600 underline">
        Show history
      </button>
      {summary && <p role="status" className="text-sm text-stone-600">{summary}</p>}
    </main>
  )
}
`

const errorTools = ['error_reports_list', 'str_replace', 'error_reports_update']

function buggyCounterStep(conversation: DemoConversation, tools: Set<string>): DemoStep {
  return nextScriptStep(
    [
      writeFileStep(
        "I'll build a **Counter**, with a bug on purpose, to show how errors reach me.",
        buggyCounterPath,
        buggyCounter,
      ),
    ],
    conversation,
    tools,
    'Done! The **Counter** is in `src/App.tsx`. Click **Show history** in the preview: it ' +
      'throws a `TypeError`. The error appears under the preview; click it and press ' +
      "'Ask agent to fix this error', and I'll fix it.",
  )
}

function fixStep(conversation: DemoConversation): DemoStep {
  const [listed, fixed, resolved] = conversation.outcomes
  if (!listed) {
    return {
      text: "Let me read the app's error reports.",
      toolCalls: [{ toolName: 'error_reports_list', input: { status: 'active', limit: 5 } }],
    }
  }
  const reports = parseErrorReports(listed.text)
  const report = reports.find((candidate) => candidate.error.includes(counterBugMessage))
  if (!report) {
    return {
      text:
        reports.length === 0
          ? 'There are no active errors right now. Use the app in the preview, then ask again.'
          : `I see ${reports.length} error(s), but as the scripted Demo model I can only fix ` +
            "the counter's **Show history** bug. Configure a real model to fix the others.",
      toolCalls: [],
    }
  }
  if (!fixed) {
    return {
      text:
        `The error is \`TypeError: ${counterBugMessage}\`, seen ${report.timeSince}: ` +
        'without a history in the link, `history.entries` is undefined. It should count as empty.',
      toolCalls: [
        {
          toolName: 'str_replace',
          input: { path: buggyCounterPath, old_str: counterBug, new_str: counterFix },
        },
      ],
    }
  }
  if (!resolved) {
    return {
      text: 'Fixed. Marking the error as resolved.',
      toolCalls: [
        {
          toolName: 'error_reports_update',
          input: {
            action: 'resolve',
            group_id: report.groupId,
            comment: 'Show history counts a missing history as empty',
          },
        },
      ],
    }
  }
  return {
    text:
      'Done! **Show history** now reads "0 saved counts" when there is no history, and the error ' +
      'is resolved; it comes back to the list if it happens again.',
    toolCalls: [],
  }
}

/** The next step of the error loop, or undefined when the message is not part of it. */
export function planErrorLoopStep(
  conversation: DemoConversation,
  tools: Set<string>,
): DemoStep | undefined {
  const text = conversation.userText.toLowerCase()
  if (/\bcounter\b/.test(text) && /\bwith (?:a|one) bug\b/.test(text) && tools.has('write_file')) {
    return buggyCounterStep(conversation, tools)
  }
  if (!isErrorFixRequest(conversation.userText)) return undefined
  if (!errorTools.every((name) => tools.has(name))) {
    return {
      text: "Error monitoring is not available in this conversation, so I can't read the app's errors.",
      toolCalls: [],
    }
  }
  return failedToolStep(conversation) ?? fixStep(conversation)
}
