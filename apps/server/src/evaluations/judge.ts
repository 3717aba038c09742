import { modelCatalogue } from '@sprout/agent/models/catalogue.ts'
import { classifyProviderError } from '@sprout/agent/providers/classify-provider-error.ts'
import { createLanguageModel } from '@sprout/agent/providers/create-language-model.ts'
import type { ProvidersConfig } from '@sprout/agent/providers/providers-config.ts'
import { DEMO_MODEL_ID } from '@sprout/protocol/models.ts'
import { generateText } from 'ai'
import { offlineSummary, type TranscriptFigures, transcriptFigures } from './offline-evaluator.ts'
import { renderTranscript, type Transcript } from './transcript.ts'

export type JudgeVerdict = { summary: string; result: Record<string, unknown> }

/** Reads one conversation and answers its summary; throws when the judge fails for good. */
export type Judge = (input: {
  transcript: Transcript
  instructions: string
  signal: AbortSignal
}) => Promise<JudgeVerdict>

/** Backoff on a provider's 429 or overload (docs/decisions/020-evaluations.md). */
export type JudgeRetry = { attempts: number; baseDelayMs: number; maxDelayMs: number }
export const defaultJudgeRetry: JudgeRetry = { attempts: 6, baseDelayMs: 2_000, maxDelayMs: 60_000 }

const OUTPUT_TOKENS = 2_000
/** Characters per token assumed when trimming (code-heavy transcripts run near 3). */
const CHARACTERS_PER_TOKEN = 3
/** A judge request never carries more than this, whatever the model's window. */
const TRANSCRIPT_CHARACTERS_MAX = 400_000

/** How much transcript fits the model's context next to the instructions and the answer. */
export function transcriptBudget(modelId: string): number {
  const window = modelCatalogue.find((entry) => entry.model === modelId)?.contextWindow ?? 128_000
  const tokens = Math.max(4_000, window - OUTPUT_TOKENS - 3_000)
  return Math.min(TRANSCRIPT_CHARACTERS_MAX, tokens * CHARACTERS_PER_TOKEN)
}

function abortableSleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, milliseconds)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** The provider's Retry-After in milliseconds, when it sent one. */
function retryAfterMs(error: unknown): number | undefined {
  const headers = (error as { responseHeaders?: Record<string, string> } | null)?.responseHeaders
  const value = Number(headers?.['retry-after'])
  return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined
}

function modelPrompt(figures: TranscriptFigures, transcript: string): string {
  return [
    'Figures counted from the transcript (offline analysis):',
    '```json',
    JSON.stringify(figures, null, 1),
    '```',
    '',
    'Transcript:',
    transcript,
  ].join('\n')
}

/** `demo`: the offline evaluator; any other id: that model through its provider, with backoff. */
export function createJudge(
  modelId: string,
  providers: ProvidersConfig,
  retry: JudgeRetry = defaultJudgeRetry,
): Judge {
  if (modelId === DEMO_MODEL_ID) {
    return async ({ transcript }) => {
      const figures = transcriptFigures(transcript)
      return { summary: offlineSummary(figures), result: { judge: 'offline', figures } }
    }
  }
  const model = createLanguageModel(modelId, providers)
  const budget = transcriptBudget(modelId)
  return async ({ transcript, instructions, signal }) => {
    const figures = transcriptFigures(transcript)
    const prompt = modelPrompt(figures, renderTranscript(transcript, budget))
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await generateText({
          model,
          system: instructions,
          prompt,
          maxOutputTokens: OUTPUT_TOKENS,
          maxRetries: 0,
          abortSignal: signal,
        })
        return {
          summary: answer.text.trim() || '_The model answered nothing._',
          result: {
            judge: 'model',
            model: modelId,
            figures,
            usage: answer.usage,
            provider_attempts: attempt,
          },
        }
      } catch (error) {
        if (signal.aborted) throw error
        const { errorType, message } = classifyProviderError(error)
        const transient = errorType === 'ratelimited' || errorType === 'overloaded'
        if (!transient || attempt >= retry.attempts) throw new Error(message)
        const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1))
        await abortableSleep(
          Math.min(retry.maxDelayMs, Math.max(backoff, retryAfterMs(error) ?? 0)),
          signal,
        )
      }
    }
  }
}
