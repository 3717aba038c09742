/**
 * Keys and base URLs of the model providers, parsed from env by the server
 * (docs/architecture/agent-loop.md "Providers").
 */
export type ProvidersConfig = {
  anthropic: { apiKey?: string; baseUrl: string }
  openai: { apiKey?: string; baseUrl: string }
  xai: { apiKey?: string; baseUrl: string }
  openaiCompatible: {
    baseUrl?: string
    apiKey?: string
    models: string[]
    /** Those of `models` that read images (docs/product/images.md); none unless told. */
    imageModels?: string[]
  }
  /** Tests only: where the Demo model's test gates are released (DEMO_TEST_GATES_DIR). */
  demo?: { testGatesDir?: string }
}
