import { ModelError } from '../port.js';

const protocolError = (why: string): ModelError =>
  new ModelError('protocol', `the embeddings endpoint answered ${why}`, { retryable: false });

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const vectorOf = (entry: unknown, position: number): number[] => {
  const record = asRecord(entry);
  if (record?.index !== position) throw protocolError(`entry ${position} out of order (index must equal position)`);
  const embedding = record.embedding;
  if (!Array.isArray(embedding) || embedding.length === 0)
    throw protocolError(`entry ${position} without an embedding array`);
  if (!embedding.every((x): x is number => typeof x === 'number' && Number.isFinite(x)))
    throw protocolError(`entry ${position} with a value that is not a finite number`);
  return embedding;
};

/**
 * The OpenAI `POST /embeddings` answer, `{data: [{index, embedding}], model, usage}`, checked
 * before any vector is trusted: one entry per input, in input order (index = position), every
 * vector the same non-zero length, every value a finite number. Base64 encodings are never asked for.
 */
export const parseEmbeddings = (json: unknown, inputs: number): number[][] => {
  const data = asRecord(json)?.data;
  if (!Array.isArray(data)) throw protocolError('without a `data` array');
  if (data.length !== inputs) throw protocolError(`${data.length} embeddings for ${inputs} inputs`);
  const vectors = data.map(vectorOf);
  const dims = vectors[0]?.length;
  if (vectors.some((v) => v.length !== dims)) throw protocolError('vectors of different lengths');
  return vectors;
};
