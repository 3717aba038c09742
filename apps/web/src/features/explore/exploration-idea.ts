import { INITIAL_PROMPT_MAX } from '@sprout/protocol/api/applications.ts'
import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import { stripMarkers } from '@sprout/protocol/text/strip-markers.ts'

/**
 * What 'Build this' hands to the create dialog: the user's own words from the exploration, in
 * order, as the app's description (the agent's replies are questions and suggestions).
 */
export function explorationIdea(blocks: readonly Block[]): string {
  const said = blocks
    .filter((block) => block.type === 'text' && block.role === 'user')
    .map((block) => stripMarkers(block.content))
    .filter((text) => text !== '' && !text.startsWith('<'))
  return said.join('\n\n').slice(0, INITIAL_PROMPT_MAX)
}
