import { DEFAULT_DICE_COUNT, DEFAULT_DICE_SIDES } from '@sprout/protocol/constants.ts'
import { formatRollDice } from '@sprout/protocol/tool-formats/roll-dice.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const rollDiceInputSchema = z.object({
  sides: z.number().int().min(2).max(1000).optional().describe('Sides per die; default 6'),
  count: z.number().int().min(1).max(100).optional().describe('Number of dice; default 1'),
})
export type RollDiceInput = z.infer<typeof rollDiceInputSchema>

/** Its output format, formatRollDice, lives in packages/protocol beside the parser the chat uses. */
export function createRollDiceTool(context: ToolContext) {
  return tool({
    description: 'Roll dice (a demo tool); default one six-sided die.',
    inputSchema: rollDiceInputSchema,
    execute: ({ sides = DEFAULT_DICE_SIDES, count = DEFAULT_DICE_COUNT }) =>
      runTool(context, async () => {
        const random = context.random ?? Math.random
        const rolls = Array.from({ length: count }, () => Math.floor(random() * sides) + 1)
        return formatRollDice({ sides, rolls })
      }),
  })
}
