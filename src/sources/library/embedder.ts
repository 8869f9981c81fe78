/**
 * What the library needs from an embeddings endpoint (src/model/embeddings/ implements it): one
 * vector per text, in order, all of one model. Absent, the library ranks lexically only.
 */
export interface PassageEmbedder {
  /** The model name, stored with each vector so vectors of different models are never compared. */
  readonly model: string;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}
