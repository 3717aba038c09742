import type { EvaluationTemplateName } from '@sprout/protocol/api/evaluations.ts'

/**
 * The judge's instructions per template (names and descriptions: packages/protocol
 * api/evaluations.ts). Each is followed by the offline figures and the transcript.
 */
const common = `You evaluate one conversation between a user and Sprout, an AI agent that builds web apps in a dev box (it writes files, runs shell commands, asks for secrets). You receive figures counted from the transcript, then the transcript itself (USER, AGENT, TOOL with its output, ERROR, STAGED messages sent while the agent worked, COMPACTION, RUN lines; long transcripts have their middle left out). Answer in markdown, concise, quoting the transcript where it matters. Do not invent events that are not in the transcript.`

export const templatePrompts: Record<EvaluationTemplateName, string> = {
  eval_conversation_challenges: `${common}

Find where the user met friction: corrections (the user repeating or correcting a request), retries, tool and environment failures (failing commands, missing packages, dev server errors), missing secrets, loops (the agent repeating the same failing step), interrupts. Then state the outcome: did the user get a working app for what they asked?

Answer with these sections:
## Outcome
One or two sentences.
## Challenges
A bulleted list, most costly first, each with what happened and what it cost (turns, time).
## Summary
Three to five sentences for a product engineer: what to improve in the agent or the product.`,

  eval_tool_failures: `${common}

List every failing tool call and command: the tool, the input, the error, the cause as far as the transcript shows (agent mistake, environment, missing dependency or secret, provider), and whether and how the agent recovered.

Answer with these sections:
## Failures
A numbered list, in order.
## Patterns
Failures that share a cause.
## Summary
What would have prevented them (agent prompt, tools, starter template, environment).`,

  eval_cost_and_length: `${common}

Judge where the conversation spent its budget: tokens, turns, duration, compactions. Point out waste: repeated reads of the same files, loops, long outputs, retries, work the user undid.

Answer with these sections:
## Spend
The figures that matter, in one short list.
## Waste
A bulleted list of avoidable spend, largest first.
## Summary
Two or three sentences: was the cost reasonable for what was built?`,

  eval_outcome: `${common}

Judge the outcome from the user's point of view: what the user asked for, what was built, what is missing or broken at the end, and how satisfied the user appears (their last messages, corrections, whether they left mid-way).

Answer with these sections:
## Request
## Result
## Missing
## Summary
One or two sentences with a verdict: success, partial success or failure.`,
}

/** The judge's instructions: a template's prompt, or the admin's own prompt after the common part. */
export function judgeInstructions(input: {
  promptTemplate: string | null
  customPrompt: string | null
}): string {
  if (input.customPrompt) return `${common}\n\n${input.customPrompt}`
  const template = input.promptTemplate as EvaluationTemplateName | null
  return (template && templatePrompts[template]) || templatePrompts.eval_conversation_challenges
}
