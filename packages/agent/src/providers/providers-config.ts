/** Keys and base URLs of the model providers, parsed from env by the server (DESIGN §5). */
export type ProvidersConfig = {
  anthropic: { apiKey?: string; baseUrl: string }
  openai: { apiKey?: string; baseUrl: string }
  xai: { apiKey?: string; baseUrl: string }
  openaiCompatible: { baseUrl?: string; apiKey?: string; models: string[] }
  /** Tests only: where the Demo model's test gates are released (DEMO_TEST_GATES_DIR). */
  demo?: { testGatesDir?: string }
}
