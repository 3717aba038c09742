/** Keys and base URLs of the model providers, parsed from env by the server (DESIGN §5). */
export type ProvidersConfig = {
  anthropic: { apiKey?: string; baseUrl: string }
  openai: { apiKey?: string; baseUrl: string }
  xai: { apiKey?: string; baseUrl: string }
  openaiCompatible: { baseUrl?: string; apiKey?: string; models: string[] }
}
