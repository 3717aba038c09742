import { DemoLanguageModel } from '../demo/demo-model.ts'

/** The settings of a test run of the Demo model (no streaming pauses); spread into runAgent. */
export function demoRun() {
  return {
    model: new DemoLanguageModel({ chunkDelayMs: 0 }),
    modelId: 'demo',
    contextWindow: 200_000,
    system: 'You build apps.',
  }
}
