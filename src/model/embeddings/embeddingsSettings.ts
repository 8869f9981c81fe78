/** Where the operator's OpenAI-compatible embeddings endpoint is (HELIX_EMBEDDINGS_*, docs/configuration.md). */
export interface EmbeddingsSettings {
  /** The base URL; the client posts to `{baseUrl}/embeddings`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as a bearer token only; local servers (Ollama, llama.cpp) need none. */
  readonly apiKey?: string;
}
