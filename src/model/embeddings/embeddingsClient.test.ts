import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fixtureEmbedding,
  startEmbeddingsServer,
  type EmbeddingsReply,
  type EmbeddingsServer,
} from '../../../test/support/embeddingsServer.js';
import { rejectsWithModelError } from '../../../test/support/modelErrors.js';
import { embeddingsClient } from './embeddingsClient.js';

const KEY = 'sk-embeddings-test-key-0123456789';
let server: EmbeddingsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const setup = async (replies: EmbeddingsReply[] = [], apiKey: string | null = KEY) => {
  server = await startEmbeddingsServer();
  server.replies.push(...replies);
  const client = embeddingsClient({
    baseUrl: server.url,
    model: 'nomic-embed-text',
    ...(apiKey === null ? {} : { apiKey }),
  });
  return { server, client };
};

const entry = (index: number, embedding: unknown) => ({ object: 'embedding', index, embedding });

describe('embeddingsClient', () => {
  it('posts the OpenAI wire format and returns one vector per input, in order, in batches of 64', async () => {
    const { server, client } = await setup();
    const texts = Array.from({ length: 130 }, (_, i) => `passage number ${i} about crash recovery`);
    const vectors = await client.embed(texts);
    expect(vectors).toEqual(texts.map(fixtureEmbedding));
    expect(server.requests.map((r) => r.body.input.length)).toEqual([64, 64, 2]);
    expect(server.requests[0]).toMatchObject({
      path: '/v1/embeddings',
      body: { model: 'nomic-embed-text', encoding_format: 'float' },
    });
  });

  it('sends the key as a bearer token and nowhere else', async () => {
    const { server, client } = await setup();
    await client.embed(['hello']);
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(request?.body)).not.toContain(KEY);
    expect(request?.path).not.toContain(KEY);
  });

  it('sends no authorization header without a key (local servers)', async () => {
    const { server, client } = await setup([], null);
    await client.embed(['hello']);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it.each<[string, EmbeddingsReply, RegExp]>([
    ['a body that is not JSON', { kind: 'raw', text: '<html>' }, /not JSON/],
    ['no data array', { kind: 'json', body: { object: 'list' } }, /without a `data` array/],
    ['fewer vectors than inputs', { kind: 'json', body: { data: [entry(0, [1, 0])] } }, /1 embeddings for 2 inputs/],
    [
      'entries out of order',
      { kind: 'json', body: { data: [entry(1, [1, 0]), entry(0, [0, 1])] } },
      /entry 0 out of order/,
    ],
    [
      'vectors of different lengths',
      { kind: 'json', body: { data: [entry(0, [1, 0]), entry(1, [0, 1, 0])] } },
      /different lengths/,
    ],
    [
      'a value that is not a number',
      { kind: 'json', body: { data: [entry(0, [1, null]), entry(1, [0, 1])] } },
      /not a finite number/,
    ],
    ['an empty vector', { kind: 'json', body: { data: [entry(0, []), entry(1, [])] } }, /without an embedding/],
  ])('refuses an answer with %s as a protocol error', async (_name, reply, message) => {
    const { client } = await setup([reply]);
    const error = await rejectsWithModelError(client.embed(['one', 'two']));
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(message);
  });

  it.each([
    [401, 'auth'],
    [429, 'rate_limited'],
    [503, 'server'],
    [400, 'bad_request'],
  ] as const)('maps HTTP %i to a %s error without echoing the body or the key', async (status, kind) => {
    const { client } = await setup([
      { kind: 'status', status, body: { error: { message: `bad key ${KEY}`, type: 'invalid_request_error' } } },
    ]);
    const error = await rejectsWithModelError(client.embed(['hello']));
    expect(error.kind).toBe(kind);
    expect(error.details.httpStatus).toBe(status);
    expect(error.message).toContain(`embeddings endpoint refused the request with HTTP ${status}`);
    expect(error.message).not.toContain(KEY);
  });

  it('refuses a redirect rather than carrying the key elsewhere', async () => {
    const redirecting = createServer((_req, res) => res.writeHead(307, { location: 'http://127.0.0.1:9/' }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const { port } = redirecting.address() as AddressInfo;
    try {
      const client = embeddingsClient({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: KEY });
      const error = await rejectsWithModelError(client.embed(['hello']));
      expect(error.kind).toBe('protocol');
    } finally {
      redirecting.close();
    }
  });

  it('reports an endpoint that is not there as a transport error', async () => {
    const { server } = await setup();
    const url = server.url;
    await server.close();
    const client = embeddingsClient({ baseUrl: url, model: 'm' });
    const error = await rejectsWithModelError(client.embed(['hello']));
    expect(error.kind).toBe('transport');
    expect(error.message).toContain('could not reach the embeddings endpoint');
  });
});

describe('embeddingsClient time bound', () => {
  it('gives up on an endpoint that does not answer in time, as a transport error', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const client = embeddingsClient({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }, { timeoutMs: 50 });
      const error = await rejectsWithModelError(client.embed(['hello']));
      expect(error.kind).toBe('transport');
      expect(error.message).toBe('the embeddings endpoint did not answer in time');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
