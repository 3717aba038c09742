import { formatSecretRequest } from '@sprout/protocol/text/secret-request.ts'
import { planDemoApp, renderDemoApp } from './demo-app.ts'
import type { DemoConversation } from './demo-conversation.ts'
import { planErrorLoopStep } from './demo-error-loop.ts'
import { guestBookScript } from './demo-guest-book.ts'
import { describeImages } from './demo-images.ts'
import { linearScript } from './demo-linear.ts'
import { membersNotesScript } from './demo-members-notes.ts'
import { describeSelections } from './demo-selections.ts'
import {
  type DemoScript,
  type DemoStep,
  type DemoToolCall,
  nextScriptStep,
  writeFileStep,
} from './demo-steps.ts'
import { isRepairRequest, planTestedGuestBookStep } from './demo-tested-guest-book.ts'
import { planTypeErrorStep } from './demo-type-error.ts'
import { WEATHER_SECRET_KEY, weatherScript } from './demo-weather.ts'

export type { DemoStep, DemoToolCall } from './demo-steps.ts'

export const DEMO_HELP_TEXT =
  'I am the **Demo model**: a scripted stand-in with no AI behind it, so I cannot understand ' +
  'that request. I can build a small starter app from a description ("Build a recipe tracker ' +
  'with ingredients and ratings"), a guest book with its own server and database ("Build a ' +
  'guest book"), a public app with accounts of its own ("Build a members-only notes app"), one with an acceptance test that catches my bug ("Build a guest book with a ' +
  'test"), a counter with a bug for me to fix ("Build a counter with a bug"), a ' +
  'counter with a type error for the check to catch ("Build a counter with a type error"), a ' +
  'weather app that asks for its API key ("Build a weather app"), a page of your Linear ' +
  'issues through the organization\'s connection ("Build a page listing my Linear issues"), roll ' +
  'dice ("roll 2d6"), tell the time ("what time is it") ' +
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
  | { kind: 'guest-book' }
  | { kind: 'members-notes' }
  | { kind: 'weather' }
  | { kind: 'weather-key-set' }
  | { kind: 'linear' }
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
  if (/\bguest\s?book\b/.test(text)) return { kind: 'guest-book' }
  if (/\bmembers?[- ]only\b/.test(text) && /\bnotes?\b/.test(text)) return { kind: 'members-notes' }
  // The message the chat sends once the secret widget saved the key (secretSetMessage).
  if (text.includes(`set the secret "${WEATHER_SECRET_KEY.toLowerCase()}"`)) {
    return { kind: 'weather-key-set' }
  }
  if (/\bweather\b/.test(text)) return { kind: 'weather' }
  if (/\blinear\b/.test(text)) return { kind: 'linear' }
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

const realModelHint =
  'This was the scripted Demo model. To keep building with real AI, configure a model ' +
  'provider (for example set ANTHROPIC_API_KEY) and pick it in the model selector.'

/** The next step of a scripted app; its closing text points to a real model. */
function scriptStep(script: DemoScript, conversation: DemoConversation, tools: Set<string>) {
  return nextScriptStep(script.steps, conversation, tools, `${script.done}\n\n${realModelHint}`)
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
    writeFileStep('Writing the app now.', 'src/App.tsx', renderDemoApp(plan)),
    { toolCalls: [{ toolName: 'todos', input: tasks(true, false) }] },
    {
      text: 'Let me check the source folder.',
      toolCalls: [{ toolName: 'shell_exec', input: { command: 'ls src' } }],
    },
    { toolCalls: [{ toolName: 'todos', input: tasks(true, true) }] },
  ]
  return nextScriptStep(
    script,
    conversation,
    tools,
    `Done! **${plan.title}** is in \`src/App.tsx\`, with sections for ${featureList} and a ` +
      `small list you can add items to. The preview reloads on its own.\n\n${realModelHint}`,
  )
}

/**
 * A weather app needs a provider's key: the Demo model asks for it with the secret widget and
 * stops; once the user has set it, it writes the route that reads it on the server.
 */
const weatherKeyRequest: DemoStep = {
  text:
    "A weather app needs an API key for its forecast provider. It goes into the app's vault, " +
    'and only the server reads it:\n\n' +
    `${formatSecretRequest(WEATHER_SECRET_KEY)}\n\n` +
    "Once it is set, I'll write the server route that uses it.",
  toolCalls: [],
}

/**
 * Decides the Demo model's next turn from the prompt alone, so it works across steps and runs. Its
 * first step says what it was told changed since its last run (a restore, hand edits).
 */
export function planDemoStep(conversation: DemoConversation, availableTools: string[]): DemoStep {
  const step = planScriptedStep(conversation, availableTools)
  const notes = conversation.runNotes ?? []
  if (notes.length === 0 || conversation.outcomes.length > 0) return step
  const told = `Since my last run: ${notes.join(' ')}`
  return { ...step, text: step.text ? `${told}\n\n${step.text}` : told }
}

function planScriptedStep(conversation: DemoConversation, availableTools: string[]): DemoStep {
  // A message with images is answered with what the Demo can tell of them (docs/product/images.md);
  // a repair turn's images are its failing tests' screenshots (docs/product/checks.md).
  if (
    conversation.images &&
    conversation.outcomes.length === 0 &&
    !isRepairRequest(conversation.userText)
  ) {
    return { text: describeImages(conversation.images), toolCalls: [] }
  }
  // Elements pointed at in the preview are echoed with their file and line (docs/product/builder.md).
  const pointedAt = describeSelections(conversation.userText)
  if (pointedAt && conversation.outcomes.length === 0) return { text: pointedAt, toolCalls: [] }
  const tools = new Set(availableTools)
  const errorLoop =
    planErrorLoopStep(conversation, tools) ??
    planTestedGuestBookStep(conversation, tools) ??
    planTypeErrorStep(conversation, tools)
  if (errorLoop) return errorLoop
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
    case 'guest-book':
      if (!tools.has('write_file')) break
      return scriptStep(guestBookScript, conversation, tools)
    case 'members-notes':
      if (!tools.has('write_file')) break
      return scriptStep(membersNotesScript, conversation, tools)
    case 'weather':
      if (!tools.has('write_file')) break
      return weatherKeyRequest
    case 'weather-key-set':
      if (!tools.has('write_file')) break
      return scriptStep(weatherScript, conversation, tools)
    case 'linear':
      if (!tools.has('write_file')) break
      return scriptStep(linearScript, conversation, tools)
    case 'build':
      if (!tools.has('write_file')) break
      // 'Also make the header green' during a build is no new app: the build goes on.
      if (!newAppWords.test(conversation.userText)) {
        const resumed = resumeUnfinished(conversation, availableTools)
        if (resumed) return resumed
      }
      return buildSteps(conversation, tools)
    case 'other':
      return (
        resumeUnfinished(conversation, availableTools) ?? { text: DEMO_HELP_TEXT, toolCalls: [] }
      )
  }
  return { text: DEMO_HELP_TEXT, toolCalls: [] }
}

/** A message that asks for a new app, e.g. 'Build a todo app instead' or 'make me a game'. */
const newAppWords =
  /^\s*(?:please\s+)?(?:build|create|make|design|develop|generate)\s+(?:me\s+)?(?:a|an)\b/i

/**
 * A retry's 'Please continue.', or a message the Demo model has no script for that came while a
 * turn was left unfinished (interrupted, or queued during it): that turn's script goes on from
 * the step after its last tool result, instead of the help (issue 20).
 */
function resumeUnfinished(
  conversation: DemoConversation,
  availableTools: string[],
): DemoStep | undefined {
  const { unfinished } = conversation
  if (!unfinished) return undefined
  return planDemoStep(
    { ...unfinished, outcomes: [...unfinished.outcomes, ...conversation.outcomes] },
    availableTools,
  )
}
