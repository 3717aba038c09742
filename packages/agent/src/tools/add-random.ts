import { formatAddRandom } from '@sprout/protocol/tool-formats/add-random.ts'
import { tool } from 'ai'
import { z } from 'zod'
import type { ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const addRandomInputSchema = z.object({
  num: z.number().describe('The number to add a random integer to'),
})
export type AddRandomInput = z.infer<typeof addRandomInputSchema>

/** Its output format, formatAddRandom, lives in packages/protocol beside the parser the chat uses. */
export function createAddRandomTool(context: ToolContext) {
  return tool({
    description: 'Add a random integer from 1 to 100 to a number (a demo tool).',
    inputSchema: addRandomInputSchema,
    execute: ({ num }) =>
      runTool(context, async () => {
        const added = Math.floor((context.random ?? Math.random)() * 100) + 1
        return formatAddRandom({ added, result: num + added })
      }),
  })
}
