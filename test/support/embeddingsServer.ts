import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contentTerms, stem } from '../../src/domain/terms.js';

export const FIXTURE_DIMS = 64;

/**
 * Words the fixture model treats as one meaning, so a test can show a paraphrase reaching a
 * passage that shares no word with the query (what a real embedding model does, and BM25 cannot).
 */
const SYNONYMS: Readonly<Record<string, string>> = {
  automobile: 'car',
  vehicle: 'car',
  mend: 'repair',
  fix: 'repair',
  broken: 'damag',
};

const dimensionOf = (word: string): number => createHash('sha256').update(word).digest().readUInt32BE(0) % FIXTURE_DIMS;

/** A deterministic "embedding": a hashed bag of stems (synonyms folded), L2-normalized. */
export const fixtureEmbedding = (text: string): number[] => {
  const vector = new Array<number>(FIXTURE_DIMS).fill(0);
  for (const term of contentTerms(text)) {
    const root = stem(term);
    const index = dimensionOf(SYNONYMS[term] ?? SYNONYMS[root] ?? root);
    vector[index] = (vector[index] ?? 0) + 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return norm === 0 ? vector.map((_, i) => (i === 0 ? 1 : 0)) : vector.map((x) => x / norm);
};

/** A canned answer in place of the computed one. */
export type EmbeddingsReply =
  | { readonly kind: 'status'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'json'; readonly body: unknown }
  | { readonly kind: 'raw'; readonly text: string };

export interface RecordedEmbeddingsRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: { model: string; input: string[] };
}

export interface EmbeddingsServer {
  /** The OpenAI-compatible base URL, ending in `/v1`. */
  readonly url: string;
  readonly requests: RecordedEmbeddingsRequest[];
  /** Replies used, in order, before computed ones. */
  readonly replies: EmbeddingsReply[];
  /** Every input text the server embedded, in order. */
  embeddedTexts(): string[];
  close(): Promise<void>;
}

/** An OpenAI-wire `POST /v1/embeddings` server on 127.0.0.1 (as Ollama, vLLM, llama.cpp speak it). */
export const startEmbeddingsServer = async (): Promise<EmbeddingsServer> => {
  const requests: RecordedEmbeddingsRequest[] = [];
  const replies: EmbeddingsReply[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as RecordedEmbeddingsRequest['body'];
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      const reply = replies.shift();
      res.setHeader('content-type', 'application/json');
      if (reply?.kind === 'status') res.writeHead(reply.status).end(JSON.stringify(reply.body));
      else if (reply?.kind === 'raw') res.end(reply.text);
      else if (reply?.kind === 'json') res.end(JSON.stringify(reply.body));
      else if (req.method !== 'POST' || req.url !== '/v1/embeddings') res.writeHead(404).end('{}');
      else
        res.end(
          JSON.stringify({
            object: 'list',
            data: body.input.map((text, index) => ({ object: 'embedding', index, embedding: fixtureEmbedding(text) })),
            model: body.model,
            usage: { prompt_tokens: body.input.length, total_tokens: body.input.length },
          }),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    replies,
    embeddedTexts: () => requests.flatMap((r) => r.body.input ?? []),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
