import { planDemoApp, renderDemoApp } from './demo-app.ts'
import type { DemoConversation } from './demo-conversation.ts'

export type DemoToolCall = { toolName: string; input: Record<string, unknown> }

/** One model turn of the Demo model: optional reasoning, text and tool calls. */
export type DemoStep = { reasoning?: string; text?: string; toolCalls: DemoToolCall[] }

export const DEMO_HELP_TEXT =
  'I am the **Demo model**: a scripted stand-in with no AI behind it, so I cannot understand ' +
  'that request. I can build a small starter app from a description ("Build a recipe tracker ' +
  'with ingredients and ratings"), roll dice ("roll 2d6"), tell the time ("what time is it") ' +
  'or add a random number ("add a random number to 5").\n\n' +
  'To work with a real model, set ANTHROPIC_API_KEY, OPENAI_API_KEY or XAI_API_KEY (or ' +
  'OPENAI_COMPATIBLE_BASE_URL and OPENAI_COMPATIBLE_MODELS for a local server such as Ollama), ' +
  'restart Sprout and pick that model in the model selector.'

const buildWords =
  /\b(build|create|make|design|develop|generate|app|application|website|site|page|dashboard|tracker|game|landing|portfolio|store|shop|blog)\b/i

type Intent =
  | { kind: 'dice'; count: number; sides: number }
  | { kind: 'time' }
  | { kind: 'add-random'; num: number }
  | { kind: 'build' }
  | { kind: 'other' }

export function detectDemoIntent(userText: string): Intent {
  const text = userText.toLowerCase()
  const dice = /\broll\b(?:\s+(?:a|an|one|the))?\s*(\d*)\s*d\s*(\d+)\b/.exec(text)
  if (dice) {
    return { kind: 'dice', count: Number(dice[1] || 1), sides: Number(dice[2]) }
  }
  if (/\broll\b.*\b(?:die|dice)\b/.test(text)) return { kind: 'dice', count: 1, sides: 6 }
  if (/\b(?:what time|current time|time is it|what's the time|what is the time)\b/.test(text)) {
    return { kind: 'time' }
  }
  const addRandom = /\badd (?:a )?random (?:number|integer) to (-?\d+(?:\.\d+)?)/.exec(text)
  if (addRandom) return { kind: 'add-random', num: Number(addRandom[1]) }
  if (buildWords.test(text)) return { kind: 'build' }
  return { kind: 'other' }
}

function toolReply(conversation: DemoConversation, call: DemoToolCall, lead: string): DemoStep {
  const outcome = conversation.outcomes.at(-1)
  if (!outcome) return { text: lead, toolCalls: [call] }
  if (outcome.isError) {
    return { text: `The ${outcome.toolName} tool failed: ${outcome.text}`, toolCalls: [] }
  }
  return { text: `${outcome.text}.`.replace(/\.\.$/, '.'), toolCalls: [] }
}

function buildSteps(conversation: DemoConversation, tools: Set<string>): DemoStep {
  const plan = planDemoApp(conversation.userText)
  const featureList = plan.features.join(', ')
  const tasks = (writeDone: boolean, checkDone: boolean) => ({
    title: plan.title,
    tasks: [
      {
        id: '1',
        status: writeDone ? 'complete' : 'incomplete',
        title: 'Write the app in src/App.tsx',
        notes: `Sections: ${featureList}`,
      },
      { id: '2', status: checkDone ? 'complete' : 'incomplete', title: 'Check the project files' },
    ],
  })
  const script: DemoStep[] = [
    {
      reasoning:
        `The request is for "${plan.title}". I will write a single-page React app with ` +
        `Tailwind: a header, one card for each of ${featureList}, and a small list you can add ` +
        'items to. Then I will check the files and report.',
      text: `I'll build **${plan.title}** for you. Here's the plan:`,
      toolCalls: [{ toolName: 'todos', input: tasks(false, false) }],
    },
    {
      text: 'Writing the app now.',
      toolCalls: [
        { toolName: 'write_file', input: { path: 'src/App.tsx', content: renderDemoApp(plan) } },
      ],
    },
    { toolCalls: [{ toolName: 'todos', input: tasks(true, false) }] },
    {
      text: 'Let me check the source folder.',
      toolCalls: [{ toolName: 'shell_exec', input: { command: 'ls src' } }],
    },
    { toolCalls: [{ toolName: 'todos', input: tasks(true, true) }] },
  ]
  const failed = conversation.outcomes.find((outcome) => outcome.isError)
  if (failed) {
    return {
      text:
        `The ${failed.toolName} step failed: ${failed.text}\n\n` +
        'As a scripted demo I cannot work around that. Configure a real model to keep going.',
      toolCalls: [],
    }
  }
  const next = script[conversation.outcomes.length]
  if (next?.toolCalls.every((call) => tools.has(call.toolName))) return next
  return {
    text:
      `Done! **${plan.title}** is in \`src/App.tsx\`, with sections for ${featureList} and a ` +
      'small list you can add items to. The preview reloads on its own.\n\n' +
      'This was the scripted Demo model. To keep building with real AI, configure a model ' +
      'provider (for example set ANTHROPIC_API_KEY) and pick it in the model selector.',
    toolCalls: [],
  }
}

/** Decides the Demo model's next turn from the prompt alone, so it works across steps and runs. */
export function planDemoStep(conversation: DemoConversation, availableTools: string[]): DemoStep {
  const tools = new Set(availableTools)
  const intent = detectDemoIntent(conversation.userText)
  switch (intent.kind) {
    case 'dice':
      if (!tools.has('roll_dice')) break
      return toolReply(
        conversation,
        { toolName: 'roll_dice', input: { count: intent.count, sides: intent.sides } },
        `Rolling ${intent.count}d${intent.sides}.`,
      )
    case 'time':
      if (!tools.has('get_time')) break
      return toolReply(conversation, { toolName: 'get_time', input: {} }, 'Let me check the clock.')
    case 'add-random':
      if (!tools.has('add_random')) break
      return toolReply(
        conversation,
        { toolName: 'add_random', input: { num: intent.num } },
        `Adding a random number to ${intent.num}.`,
      )
    case 'build':
      if (!tools.has('write_file')) break
      return buildSteps(conversation, tools)
    case 'other':
      break
  }
  return { text: DEMO_HELP_TEXT, toolCalls: [] }
}
