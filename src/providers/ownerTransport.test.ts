import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsClient } from '../model/chat/chatCompletions.js';
import { ResponsesGatewayClient } from '../model/gateway/responsesGateway.js';
import { generate, ModelError, type ModelClient } from '../model/port.js';
import { cidr } from '../outbound/ipAddress.js';
import type { HostResolver } from '../outbound/resolveDestination.js';
import type { BaseUrlPolicy } from './baseUrlPolicy.js';
import { ownerTransport } from './ownerTransport.js';

const LOOPBACK_ALLOWED: BaseUrlPolicy = { production: false, allowedHosts: undefined, allowedCidrs: [cidr('127.0.0.0/8')] };
const NO_DNS: HostResolver = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};
const noWait = { sleep: async () => undefined };

const servers: (Server | TcpServer)[] = [];
const sockets = new Set<Socket>();
const listen = async <S extends Server | TcpServer>(server: S, host = '127.0.0.1', port = 0): Promise<number> => {
  servers.push(server);
  server.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return (server.address() as AddressInfo).port;
};
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

/** An HTTP peer that answers every request the same way, and counts them. */
const answering = (status: number, body: string, headers: Record<string, string> = {}) => {
  const counter = { requests: 0 };
  const server = createHttpServer((req, res) => {
    counter.requests += 1;
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body));
  });
  return { server, counter };
};

const request = () => ({ model: 'm', instructions: 'be brief', input: [{ type: 'message' as const, role: 'user' as const, text: 'hi' }], tools: [], signal: new AbortController().signal });

const failureOf = async (client: ModelClient): Promise<ModelError> => {
  const error = await generate(client, request()).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
};

describe("an owner-registered provider's transport", () => {
  const peers: Record<string, string> = {};
  const reports: ModelError[] = [];
  const transport = () => ownerTransport({ policy: LOOPBACK_ALLOWED, resolve: NO_DNS, report: (error) => void reports.push(error) });

  beforeAll(async () => {
    const closed = createTcpServer();
    const closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    servers.splice(servers.indexOf(closed), 1);
    peers['closed port'] = `http://127.0.0.1:${closedPort}/v1`;
    peers['a peer that is not HTTP'] = `http://127.0.0.1:${await listen(createTcpServer((socket) => socket.end('220 smtp.internal ESMTP ready\r\n')))}/v1`;
    peers['HTTP 500'] = `http://127.0.0.1:${await listen(answering(500, '{"error":{"message":"internal","type":"server_error"}}').server)}/v1`;
    peers['HTTP 401 in the OpenAI shape'] = `http://127.0.0.1:${await listen(answering(401, '{"error":{"message":"Incorrect API key","code":"invalid_api_key"}}').server)}/v1`;
    peers['HTTP 429 asking for an hour'] = `http://127.0.0.1:${await listen(answering(429, '{"error":{"code":"rate_limit_exceeded"}}', { 'retry-after': '3600' }).server)}/v1`;
    peers['HTTP 404'] = `http://127.0.0.1:${await listen(answering(404, 'not found').server)}/v1`;
    peers['HTTP 200 that is not a model stream'] = `http://127.0.0.1:${await listen(answering(200, '<html>router login</html>').server)}/v1`;
    peers['a redirect'] = `http://127.0.0.1:${await listen(answering(302, '', { location: 'http://169.254.169.254/' }).server)}/v1`;
    peers['a name that does not resolve'] = 'http://models.nowhere.test/v1';
    peers['a refused address'] = 'http://10.0.0.1/v1';
  });

  it.each(['chat-completions', 'openai-responses'] as const)('tells every peer-caused failure as one `unreachable`, with the same attempts (%s)', async (kind) => {
    const seen = new Map<string, unknown>();
    for (const [what, baseUrl] of Object.entries(peers)) {
      reports.length = 0;
      const options = { baseUrl, apiKey: 'sk-owner-key-0123456789', retry: { ...noWait, maxAttempts: 3 }, ...transport() };
      const client = kind === 'chat-completions' ? new ChatCompletionsClient(options) : new ResponsesGatewayClient(options);
      const error = await failureOf(client);
      seen.set(what, { kind: error.kind, message: error.message, details: error.details });
      // The operator's debug log hears what really happened, once per attempt.
      expect(reports, what).toHaveLength(3);
      expect(reports.every((report) => report.kind !== 'unreachable'), what).toBe(true);
    }
    const distinct = new Set([...seen.values()].map((value) => JSON.stringify(value)));
    expect([...distinct]).toEqual([JSON.stringify({ kind: 'unreachable', message: 'the model provider could not be reached', details: { retryable: true, attempts: 3 } })]);
  });

  it('still tells the owner what a provider states inside a well-formed model stream', async () => {
    const stream = 'data: {"error":{"message":"This model\'s maximum context length is 4096 tokens"}}\n\n';
    const port = await listen(createHttpServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(stream))));
    const client = new ChatCompletionsClient({ baseUrl: `http://127.0.0.1:${port}/v1`, retry: noWait, ...transport() });
    expect((await failureOf(client)).kind).toBe('context_length');
  });

  it('resolves before every request and refuses a name that now resolves to a refused address (DNS rebinding)', async () => {
    // The same port on two loopback addresses: only 127.0.0.2 is admitted.
    const admitted = answering(200, '{"object":"list","data":[{"id":"m"}]}');
    const port = await listen(admitted.server, '127.0.0.2');
    const forbidden = answering(200, '{"object":"list","data":[{"id":"internal"}]}');
    await listen(forbidden.server, '127.0.0.1', port);
    const answers = [['127.0.0.2'], ['127.0.0.1']];
    const rebinding: HostResolver = async () => answers.shift() ?? [];
    const policy = { ...LOOPBACK_ALLOWED, allowedCidrs: [cidr('127.0.0.2/32')] };
    const client = new ChatCompletionsClient({ baseUrl: `http://models.rebind.test:${port}/v1`, retry: { ...noWait, maxAttempts: 1 }, ...ownerTransport({ policy, resolve: rebinding, report: (e) => void reports.push(e) }) });

    expect(await client.listModels(new AbortController().signal)).toMatchObject([{ id: 'm' }]);
    reports.length = 0;
    const error = await client.listModels(new AbortController().signal).then(
      () => undefined,
      (thrown: unknown) => thrown as ModelError,
    );
    expect(error?.kind).toBe('unreachable');
    expect(reports.map((report) => report.message)).toEqual([expect.stringContaining('the outbound policy refused the destination')]);
    expect([admitted.counter.requests, forbidden.counter.requests]).toEqual([1, 0]);
  });

  it('applies the host allow-list as it is now, not as it was at registration', async () => {
    const { server, counter } = answering(200, '{"object":"list","data":[]}');
    const port = await listen(server);
    const narrowed = { ...LOOPBACK_ALLOWED, allowedHosts: new Set(['models.example']) };
    const client = new ChatCompletionsClient({ baseUrl: `http://127.0.0.1:${port}/v1`, retry: noWait, ...ownerTransport({ policy: narrowed, resolve: NO_DNS, report: () => undefined }) });
    await expect(client.listModels(new AbortController().signal)).rejects.toMatchObject({ kind: 'unreachable' });
    expect(counter.requests).toBe(0);
  });
});
