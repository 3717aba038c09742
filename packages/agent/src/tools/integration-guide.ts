import { generateText, type LanguageModel, tool } from 'ai'
import { z } from 'zod'
import { answerFromGuide, findGuideName, listGuideNames, readGuide } from './integration-guides.ts'
import type { IntegrationGuidesAccess, ToolContext } from './tool-context.ts'
import { runTool } from './tool-output.ts'

export const integrationGuideInputSchema = z.object({
  integration: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .describe("The integration's name, e.g. 'linear', 'google-sheets' or 'hubspot'"),
  question: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .describe('What you need to know, e.g. "How do I list the open issues with pagination?"'),
})
export type IntegrationGuideInput = z.infer<typeof integrationGuideInputSchema>

/**
 * The guide's answer (docs/product/integration-guides/, decision 019): the matching sections of
 * the integration's guide, or, when the server offers one, a model's answer from the guide.
 */
export async function answerIntegrationQuestion(
  context: Pick<ToolContext, 'integrationGuides'>,
  { integration, question }: IntegrationGuideInput,
): Promise<string> {
  const name = await findGuideName(integration, context.integrationGuides?.dir)
  if (!name) {
    const known = await listGuideNames(context.integrationGuides?.dir)
    return (
      `There is no guide for ${integration}; guides exist for ${known.join(', ')}.\n\n` +
      "For another connected integration, call its API from a server route with a token from `getAccessToken('<service name>')` " +
      "(server/integrations.ts), following the API's own documentation."
    )
  }
  const guide = await readGuide(name, context.integrationGuides?.dir)
  const answer = context.integrationGuides?.answer
  if (answer) {
    try {
      const text = (await answer({ integration: name, question, guide })).trim()
      if (text) return text
    } catch {
      // A model that fails or times out still leaves the guide itself.
    }
  }
  return answerFromGuide(guide, question)
}

export function createIntegrationGuideTool(context: ToolContext) {
  return tool({
    description:
      "Ask the integration guide how the app's server calls a connected service's API (Linear, " +
      'Google Sheets, HubSpot): the code with getAccessToken, the useful endpoints, pagination ' +
      'and rate limits. Ask it before writing a route that calls one of them.',
    inputSchema: integrationGuideInputSchema,
    execute: (input) => runTool(context, () => answerIntegrationQuestion(context, input)),
  })
}

const guideInstructions =
  "You answer a developer's question about calling a service's API from an app's server, using " +
  "only the guide given. Keep the guide's way of getting the token (getAccessToken from " +
  'server/integrations.ts) and its code style; give the code to write, the endpoints, ' +
  'pagination and rate limits that matter for the question, in Markdown, briefly.'

/** A configured model answers the question from the guide (decision 019). */
export function modelGuideAnswerer(
  model: LanguageModel,
  options: { abortSignal?: AbortSignal; maxRetries?: number } = {},
): NonNullable<IntegrationGuidesAccess['answer']> {
  return async ({ integration, question, guide }) => {
    const { text } = await generateText({
      model,
      instructions: guideInstructions,
      messages: [
        {
          role: 'user',
          content: `The ${integration} integration guide:\n\n${guide}\n\nQuestion: ${question}`,
        },
      ],
      maxOutputTokens: 2000,
      ...options,
    })
    return text
  }
}
