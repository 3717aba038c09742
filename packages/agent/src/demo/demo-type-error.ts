import type { DemoConversation } from './demo-conversation.ts'
import { type DemoStep, failedToolStep, nextScriptStep, writeFileStep } from './demo-steps.ts'
import { isRepairRequest } from './demo-tested-guest-book.ts'

/**
 * The Demo model's check loop (docs/product/checks.md "The Demo model"): "Build a counter with a
 * type error" writes a counter whose label is typed wrong on purpose; the check after the run
 * finds it, and the repair turn (its message is the check's problems) fixes that line.
 */

export const typeErrorPath = 'src/App.tsx'
export const typeErrorLine = '  const label: string = count'
export const typeErrorFix = '  const label: string = String(count)'

export const typedCounter = `import { useState } from 'react'

export function App() {
  const [count, setCount] = useState(0)
${typeErrorLine}

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-6 px-6">
      <h1 className="text-4xl font-semibold tracking-tight">Typed Counter</h1>
      <p aria-label="Count" className="text-7xl font-bold tabular-nums">{label}</p>
      <button type="button" onClick={() => setCount((value) => value + 1)} className="rounded-lg bg-emerald-600 px-5 py-2 text-xl text-white">+</button>
    </main>
  )
}
`

function writeStep(conversation: DemoConversation, tools: Set<string>): DemoStep {
  return nextScriptStep(
    [
      writeFileStep(
        "I'll build a **Typed Counter**, with a type error on purpose, to show how the check " +
          'after each run catches what I get wrong.',
        typeErrorPath,
        typedCounter,
      ),
    ],
    conversation,
    tools,
    'Done! The **Typed Counter** is in `src/App.tsx`. Its label is a number typed as a string: ' +
      'the check after this run will find it, and I will fix it in one repair turn.',
  )
}

function repairStep(conversation: DemoConversation, tools: Set<string>): DemoStep {
  const failed = failedToolStep(conversation)
  if (failed) return failed
  const fixable = conversation.userText.includes(`${typeErrorPath}:`) && tools.has('str_replace')
  if (!fixable) {
    return {
      text:
        'As the scripted Demo model I can only fix the type error of the **Typed Counter**. ' +
        'Configure a real model to fix these problems.',
      toolCalls: [],
    }
  }
  if (conversation.outcomes.length === 0) {
    return {
      text: 'The label is a number, typed as a string: converting it.',
      toolCalls: [
        {
          toolName: 'str_replace',
          input: { path: typeErrorPath, old_str: typeErrorLine, new_str: typeErrorFix },
        },
      ],
    }
  }
  return { text: 'Fixed: the label is now `String(count)`.', toolCalls: [] }
}

/** The next step of the check loop, or undefined when the message is not part of it. */
export function planTypeErrorStep(
  conversation: DemoConversation,
  tools: Set<string>,
): DemoStep | undefined {
  const text = conversation.userText.toLowerCase()
  if (/\bwith (?:a|one) type error\b/.test(text) && tools.has('write_file')) {
    return writeStep(conversation, tools)
  }
  if (isRepairRequest(conversation.userText)) return repairStep(conversation, tools)
  return undefined
}
