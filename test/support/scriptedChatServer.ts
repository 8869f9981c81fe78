import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool call the scripted model makes; arguments are streamed in `fragments` pieces. */
export interface ScriptedToolCall {
  readonly id?: string;
  readonly name: string;
  readonly arguments: string;
}

export interface ScriptedUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  readonly prompt_tokens_details?: { cached_tokens: number };
  readonly completion_tokens_details?: { reasoning_tokens: number };
}

/** One reply of the scripted model, spoken in the real Chat Completions wire format. */
export type ChatReply =
  | { readonly kind: 'text'; readonly text: string; readonly usage?: ScriptedUsage }
  | {
      readonly kind: 'tool_calls';
      readonly calls: readonly ScriptedToolCall[];
      readonly usage?: ScriptedUsage;
      readonly reasoning?: string;
    }
  | {
      readonly kind: 'http_error';
      readonly status: number;
      readonly body: unknown;
      readonly headers?: Record<string, string>;
    }
  /** Raw SSE text, written as given (each string its own write), then the connection ends. */
  | { readonly kind: 'raw'; readonly chunks: readonly string[] }
  /** Opens the stream, sends one content delta, then waits until the client goes away. */
  | { readonly kind: 'hang' }
  /** Streams 64 KiB content deltas, as fast as the client reads, until `maxBytes` or the client goes away. */
  | { readonly kind: 'flood'; readonly maxBytes: number };

/** A step is a reply, or a function of the request the server received (to echo a ref back). */
export type ChatStep = ChatReply | ((request: RecordedChatRequest) => ChatReply);

export interface RecordedChatRequest {
  readonly path: string;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: any;
  /** Set when the client closed the connection before the reply ended. */
  clientAborted: boolean;
  /** Bytes of reply body written (counted for `flood` replies). */
  bytesSent: number;
  /** Resolves once the reply ended or the client went away. */
  readonly settled: Promise<void>;
}

export interface ScriptedChatServer {
  /** The OpenAI-compatible base URL, ending in `/v1`. */
  readonly url: string;
  readonly requests: RecordedChatRequest[];
  /** Appends steps to the script. */
  push(...steps: ChatStep[]): void;
  close(): Promise<void>;
}

export const submitCall = (args: Record<string, unknown>, id = 'call_submit'): ScriptedToolCall => ({
  id,
  name: 'submit_result',
  arguments: JSON.stringify(args),
});

/** The tool messages of a request, in order (what the executor sent back for each call). */
export const toolMessages = (request: RecordedChatRequest): { tool_call_id: string; content: string }[] =>
  (request.body?.messages ?? []).filter((m: { role: string }) => m.role === 'tool');

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-scripted', object: 'chat.completion.chunk', model: 'scripted', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const usageChunk = (usage: ScriptedUsage) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-scripted', object: 'chat.completion.chunk', choices: [], usage })}\n\n`;

const DEFAULT_USAGE: ScriptedUsage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

/** Splits a string into three pieces so argument fragments really arrive across chunks. */
const fragments = (text: string): string[] => {
  const a = Math.floor(text.length / 3);
  const b = Math.floor((2 * text.length) / 3);
  return [text.slice(0, a), text.slice(a, b), text.slice(b)].filter((s) => s !== '');
};

const writeReply = (
  res: ServerResponse,
  reply: Exclude<ChatReply, { kind: 'http_error' | 'hang' | 'raw' | 'flood' }>,
): void => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }));
  if (reply.kind === 'text') {
    for (const piece of fragments(reply.text)) res.write(chunk({ content: piece }));
    res.write(chunk({}, 'stop'));
  } else {
    // Reasoning travels in a field local servers add (`reasoning_content`); it must never surface.
    if (reply.reasoning !== undefined) res.write(chunk({ reasoning_content: reply.reasoning }));
    reply.calls.forEach((call, index) => {
      res.write(
        chunk({
          tool_calls: [
            { index, id: call.id ?? `call_${index}`, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      );
      for (const piece of fragments(call.arguments))
        res.write(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    res.write(chunk({}, 'tool_calls'));
  }
  res.write(usageChunk(reply.usage ?? DEFAULT_USAGE));
  res.end('data: [DONE]\n\n');
};

/** A provider gone wrong: an answer that never ends, sent only as fast as the client reads it. */
const flood = async (res: ServerResponse, record: RecordedChatRequest, maxBytes: number): Promise<void> => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const piece = chunk({ content: 'x'.repeat(64 * 1024) });
  while (record.bytesSent < maxBytes && !res.destroyed) {
    record.bytesSent += piece.length;
    if (!res.write(piece)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
  }
  res.end();
};

/**
 * A loopback OpenAI Chat Completions-compatible server that plays a script, one step per
 * `POST /v1/chat/completions`, and records every request. `GET /v1/models` lists one model.
 */
export const startScriptedChatServer = async (
  steps: readonly ChatStep[] = [],
  listenOn: { host?: string; port?: number } = {},
): Promise<ScriptedChatServer> => {
  const script = [...steps];
  const requests: RecordedChatRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      let markSettled: () => void = () => undefined;
      const record: RecordedChatRequest = {
        path: req.url ?? '',
        method: req.method ?? '',
        headers: req.headers,
        body: parts.length > 0 ? JSON.parse(Buffer.concat(parts).toString('utf8')) : undefined,
        clientAborted: false,
        bytesSent: 0,
        settled: new Promise<void>((resolve) => (markSettled = resolve)),
      };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) record.clientAborted = true;
        markSettled();
      });
      if (req.method === 'GET' && req.url === '/v1/models') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data: [{ id: 'scripted-model', object: 'model' }] }));
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const step = script.shift();
      if (step === undefined) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'script exhausted', type: 'script_exhausted' } }));
        return;
      }
      const reply = typeof step === 'function' ? step(record) : step;
      switch (reply.kind) {
        case 'http_error':
          res
            .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
            .end(JSON.stringify(reply.body));
          return;
        case 'raw':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          for (const piece of reply.chunks) res.write(piece);
          res.end();
          return;
        case 'hang':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(chunk({ role: 'assistant', content: 'Thinking' }));
          return;
        case 'flood':
          void flood(res, record, reply.maxBytes);
          return;
        default:
          writeReply(res, reply);
      }
    });
  });
  const host = listenOn.host ?? '127.0.0.1';
  // A port asked for by number may be taken (EADDRINUSE): reject, so the caller can pick again.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenOn.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/v1`,
    requests,
    push: (...more) => void script.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
