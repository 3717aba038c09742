import type { Block } from '@sprout/protocol/stream/blocks-state.ts'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { getExploration } from './exploration-api.ts'
import { explorationIdea } from './exploration-idea.ts'

/**
 * 'Build this': opens home's create dialog prefilled with the idea, as the agent last summarised
 * it, or else in the user's own words.
 */
export function useBuildIdea(explorationId: string, blocks: readonly Block[]) {
  const navigate = useNavigate()
  const [isPending, setPending] = useState(false)
  const ownWords = explorationIdea(blocks)
  const build = async () => {
    setPending(true)
    let description = ownWords
    try {
      description = (await getExploration(explorationId)).summary ?? ownWords
    } catch {
      // The user's words are a fine description too.
    }
    setPending(false)
    await navigate({ to: '/', search: { create: 1, description } })
  }
  return { canBuild: ownWords !== '' && !isPending, build }
}
