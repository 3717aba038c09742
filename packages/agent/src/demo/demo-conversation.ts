import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider'

export type DemoToolOutcome = { toolName: string; text: string; isError: boolean }

/** What the Demo model looks at: the last user message and the tool results that followed it. */
export type DemoConversation = { userText: string; outcomes: DemoToolOutcome[] }

function outputText(output: LanguageModelV4ToolResultOutput): { text: string; isError: boolean } {
  switch (output.type) {
    case 'text':
      return { text: output.value, isError: false }
    case 'error-text':
      return { text: output.value, isError: true }
    case 'json':
      return { text: JSON.stringify(output.value), isError: false }
    case 'error-json':
      return { text: JSON.stringify(output.value), isError: true }
    case 'execution-denied':
      return { text: output.reason ?? 'The tool call was denied.', isError: true }
    case 'content':
      return {
        text: output.value.map((part) => (part.type === 'text' ? part.text : '')).join(''),
        isError: false,
      }
  }
}

export function readDemoConversation(prompt: LanguageModelV4Prompt): DemoConversation {
  let lastUserIndex = -1
  prompt.forEach((message, index) => {
    if (message.role === 'user') lastUserIndex = index
  })
  const lastUser = prompt[lastUserIndex]
  const userText =
    lastUser?.role === 'user'
      ? lastUser.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
      : ''
  const outcomes: DemoToolOutcome[] = []
  for (const message of prompt.slice(lastUserIndex + 1)) {
    if (message.role !== 'tool') continue
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue
      outcomes.push({ toolName: part.toolName, ...outputText(part.output) })
    }
  }
  return { userText, outcomes }
}
