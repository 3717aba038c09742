import { randomUUID } from 'node:crypto'
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider'
import { DEMO_MODEL_ID } from '@sprout/protocol/models.ts'
import { type DemoConversation, readDemoConversation } from './demo-conversation.ts'
import { type DemoStep, planDemoStep } from './demo-script.ts'
import { findTestGate, waitForTestGate, withoutTestGate } from './test-gate.ts'

export type DemoModelOptions = {
  /** Pause between streamed pieces, so the chat visibly streams; 0 in tests. */
  chunkDelayMs?: number
  /**
   * Tests only (DEMO_TEST_GATES_DIR): a message naming `[test-gate:NAME]` holds the run before
   * each step after its first until the file NAME exists here (docs/decisions/013-test-gates.md).
   */
  testGatesDir?: string
}

/** Roughly four characters per token, close enough for a demo's usage readout. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** Splits text into pieces of a few words, keeping the spaces. */
function pieces(text: string, wordsPerPiece = 3): string[] {
  const words = text.match(/\S+\s*/g) ?? [text]
  const result: string[] = []
  for (let index = 0; index < words.length; index += wordsPerPiece) {
    result.push(words.slice(index, index + wordsPerPiece).join(''))
  }
  return result
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}

function delay(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  if (milliseconds <= 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, milliseconds)
    function done() {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }
    function onAbort() {
      clearTimeout(timer)
      reject(signal ? abortError(signal) : undefined)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * The offline Demo model (docs/architecture/agent-loop.md "Demo model"): an AI SDK language model
 * with no network and no AI that follows a script chosen from the prompt, so the whole builder flow
 * runs without a key.
 */
export class DemoLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4'
  readonly provider = 'demo'
  readonly modelId = DEMO_MODEL_ID
  readonly supportedUrls = {}
  readonly chunkDelayMs: number
  readonly testGatesDir: string | undefined
  // Ids must stay unique across runs of one conversation, each of which builds a new model.
  private readonly idPrefix = `demo-${randomUUID().slice(0, 8)}`
  private callCount = 0

  constructor(options: DemoModelOptions = {}) {
    this.chunkDelayMs = options.chunkDelayMs ?? 25
    this.testGatesDir = options.testGatesDir
  }

  private plan(options: LanguageModelV4CallOptions): DemoStep {
    const toolNames = (options.tools ?? [])
      .filter((tool) => tool.type === 'function')
      .map((tool) => tool.name)
    return planDemoStep(withoutTestGates(readDemoConversation(options.prompt)), toolNames)
  }

  /** The gate this step waits at, when tests enabled gates and the message names one. */
  private gateOf(options: LanguageModelV4CallOptions): string | undefined {
    if (!this.testGatesDir) return undefined
    const conversation = readDemoConversation(options.prompt)
    return conversation.outcomes.length > 0 ? findTestGate(conversation.userText) : undefined
  }

  private usage(options: LanguageModelV4CallOptions, step: DemoStep): LanguageModelV4Usage {
    const input = estimateTokens(JSON.stringify(options.prompt)) + 1_200
    const reasoning = estimateTokens(step.reasoning ?? '')
    const text = estimateTokens(step.text ?? '') + estimateTokens(JSON.stringify(step.toolCalls))
    return {
      inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: reasoning + text, text, reasoning },
    }
  }

  private toolCallId(index: number): string {
    return `${this.idPrefix}-call-${this.callCount}-${index}`
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    this.callCount += 1
    const step = this.plan(options)
    const content: LanguageModelV4Content[] = []
    if (step.reasoning) content.push({ type: 'reasoning', text: step.reasoning })
    if (step.text) content.push({ type: 'text', text: step.text })
    step.toolCalls.forEach((call, index) => {
      content.push({
        type: 'tool-call',
        toolCallId: this.toolCallId(index),
        toolName: call.toolName,
        input: JSON.stringify(call.input),
      })
    })
    return {
      content,
      finishReason: finishReasonOf(step),
      usage: this.usage(options, step),
      warnings: [],
    }
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    this.callCount += 1
    const step = this.plan(options)
    const parts = this.streamParts(options, step, this.gateOf(options))
    const signal = options.abortSignal
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          try {
            if (signal?.aborted) throw abortError(signal)
            const next = await parts.next()
            if (next.done) controller.close()
            else controller.enqueue(next.value)
          } catch (error) {
            controller.error(error)
          }
        },
        async cancel() {
          await parts.return(undefined)
        },
      }),
    }
  }

  private async *streamParts(
    options: LanguageModelV4CallOptions,
    step: DemoStep,
    gate: string | undefined,
  ): AsyncGenerator<LanguageModelV4StreamPart> {
    const signal = options.abortSignal
    const pause = () => delay(this.chunkDelayMs, signal)
    if (gate && this.testGatesDir) await waitForTestGate(this.testGatesDir, gate, signal)
    yield { type: 'stream-start', warnings: [] }
    yield {
      type: 'response-metadata',
      id: `${this.idPrefix}-response-${this.callCount}`,
      modelId: DEMO_MODEL_ID,
      timestamp: new Date(),
    }
    if (step.reasoning) {
      const id = `${this.idPrefix}-reasoning-${this.callCount}`
      yield { type: 'reasoning-start', id }
      for (const piece of pieces(step.reasoning, 5)) {
        await pause()
        yield { type: 'reasoning-delta', id, delta: piece }
      }
      yield { type: 'reasoning-end', id }
    }
    if (step.text) {
      const id = `${this.idPrefix}-text-${this.callCount}`
      yield { type: 'text-start', id }
      for (const piece of pieces(step.text)) {
        await pause()
        yield { type: 'text-delta', id, delta: piece }
      }
      yield { type: 'text-end', id }
    }
    for (const [index, call] of step.toolCalls.entries()) {
      const id = this.toolCallId(index)
      const input = JSON.stringify(call.input)
      yield { type: 'tool-input-start', id, toolName: call.toolName }
      for (let offset = 0; offset < input.length; offset += 400) {
        await pause()
        yield { type: 'tool-input-delta', id, delta: input.slice(offset, offset + 400) }
      }
      yield { type: 'tool-input-end', id }
      yield { type: 'tool-call', toolCallId: id, toolName: call.toolName, input }
    }
    yield { type: 'finish', usage: this.usage(options, step), finishReason: finishReasonOf(step) }
  }
}

/** The gates are stripped from what the script reads, so the app it builds is the same. */
function withoutTestGates(conversation: DemoConversation): DemoConversation {
  const { unfinished, ...turn } = conversation
  return {
    ...turn,
    userText: withoutTestGate(turn.userText),
    ...(unfinished ? { unfinished: withoutTestGates(unfinished) } : {}),
  }
}

function finishReasonOf(step: DemoStep) {
  return step.toolCalls.length > 0
    ? { unified: 'tool-calls' as const, raw: 'tool_use' }
    : { unified: 'stop' as const, raw: 'end_turn' }
}
