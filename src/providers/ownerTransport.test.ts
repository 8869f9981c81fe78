import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackPeers } from '../../test/support/loopbackPeers.js';
import { ChatCompletionsClient } from '../model/chat/chatCompletions.js';
import { ResponsesGatewayClient } from '../model/gateway/responsesGateway.js';
import { generate, ModelError, type ModelClient } from '../model/port.js';
import { cidr } from '../net/ipAddress.js';
import type { HostResolver } from '../net/resolveDestination.js';
import type { BaseUrlPolicy } from '../net/baseUrlPolicy.js';
import { ownerTransport } from './ownerTransport.js';

const LOOPBACK_ALLOWED: BaseUrlPolicy = {
  production: false,
  allowedHosts: undefined,
  allowedCidrs: [cidr('127.0.0.0/8')],
};
const NO_DNS: HostResolver = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};
const noWait = { sleep: async () => undefined };

const loopback = loopbackPeers();
afterAll(() => loopback.close());
const at = (peer: { port: number }): string => `http://127.0.0.1:${peer.port}/v1`;

const request = () => ({
  model: 'm',
  instructions: 'be brief',
  input: [{ type: 'message' as const, role: 'user' as const, text: 'hi' }],
  tools: [],
  signal: new AbortController().signal,
});

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
  const transport = () =>
    ownerTransport({ policy: LOOPBACK_ALLOWED, resolve: NO_DNS, report: (error) => void reports.push(error) });

  beforeAll(async () => {
    peers['closed port'] = at(await loopback.closedPort());
    peers['a peer that is not HTTP'] = at(await loopback.notHttp('220 smtp.internal ESMTP ready\r\n'));
    peers['HTTP 500'] = at(await loopback.answering(500, '{"error":{"message":"internal","type":"server_error"}}'));
    peers['HTTP 401 in the OpenAI shape'] = at(
      await loopback.answering(401, '{"error":{"message":"Incorrect API key","code":"invalid_api_key"}}'),
    );
    peers['HTTP 429 asking for an hour'] = at(
      await loopback.answering(429, '{"error":{"code":"rate_limit_exceeded"}}', { 'retry-after': '3600' }),
    );
    peers['HTTP 404'] = at(await loopback.answering(404, 'not found'));
    peers['HTTP 200 that is not a model stream'] = at(await loopback.answering(200, '<html>router login</html>'));
    peers['a TLS certificate that does not verify'] = `https://127.0.0.1:${(await loopback.untrustedTls()).port}/v1`;
    peers['a redirect'] = at(await loopback.answering(302, '', { location: 'http://169.254.169.254/' }));
    peers['a name that does not resolve'] = 'http://models.nowhere.test/v1';
    peers['a refused address'] = 'http://10.0.0.1/v1';
  });

  it.each(['chat-completions', 'openai-responses'] as const)(
    'tells every peer-caused failure as one `unreachable`, with the same attempts (%s)',
    async (kind) => {
      const seen = new Map<string, unknown>();
      for (const [what, baseUrl] of Object.entries(peers)) {
        reports.length = 0;
        const options = {
          baseUrl,
          apiKey: 'sk-owner-key-0123456789',
          retry: { ...noWait, maxAttempts: 3 },
          ...transport(),
        };
        const client =
          kind === 'chat-completions' ? new ChatCompletionsClient(options) : new ResponsesGatewayClient(options);
        const error = await failureOf(client);
        seen.set(what, { kind: error.kind, message: error.message, details: error.details });
        // The operator's debug log hears what really happened, once per attempt.
        expect(reports, what).toHaveLength(3);
        expect(
          reports.every((report) => report.kind !== 'unreachable'),
          what,
        ).toBe(true);
      }
      const distinct = new Set([...seen.values()].map((value) => JSON.stringify(value)));
      expect([...distinct]).toEqual([
        JSON.stringify({
          kind: 'unreachable',
          message: 'the model provider could not be reached',
          details: { retryable: true, attempts: 3 },
        }),
      ]);
    },
  );

  it('still tells the owner what a provider states inside a well-formed model stream', async () => {
    const stream = 'data: {"error":{"message":"This model\'s maximum context length is 4096 tokens"}}\n\n';
    const peer = await loopback.answering(200, stream, { 'content-type': 'text/event-stream' });
    const client = new ChatCompletionsClient({ baseUrl: at(peer), retry: noWait, ...transport() });
    expect((await failureOf(client)).kind).toBe('context_length');
  });

  it('resolves before every request and refuses a name that now resolves to a refused address (DNS rebinding)', async () => {
    // The same port on two loopback addresses: only 127.0.0.2 is admitted.
    const admitted = await loopback.answering(200, '{"object":"list","data":[{"id":"m"}]}', {}, { host: '127.0.0.2' });
    const port = admitted.port;
    const forbidden = await loopback.answering(200, '{"object":"list","data":[{"id":"internal"}]}', {}, { port });
    const answers = [['127.0.0.2'], ['127.0.0.1']];
    const rebinding: HostResolver = async () => answers.shift() ?? [];
    const policy = { ...LOOPBACK_ALLOWED, allowedCidrs: [cidr('127.0.0.2/32')] };
    const client = new ChatCompletionsClient({
      baseUrl: `http://models.rebind.test:${port}/v1`,
      retry: { ...noWait, maxAttempts: 1 },
      ...ownerTransport({ policy, resolve: rebinding, report: (e) => void reports.push(e) }),
    });

    expect(await client.listModels(new AbortController().signal)).toMatchObject([{ id: 'm' }]);
    reports.length = 0;
    const error = await client.listModels(new AbortController().signal).then(
      () => undefined,
      (thrown: unknown) => thrown as ModelError,
    );
    expect(error?.kind).toBe('unreachable');
    expect(reports.map((report) => report.message)).toEqual([
      expect.stringContaining('the outbound policy refused the destination'),
    ]);
    expect([admitted.reached(), forbidden.reached()]).toEqual([1, 0]);
  });

  it('applies the host allow-list as it is now, not as it was at registration', async () => {
    const peer = await loopback.answering(200, '{"object":"list","data":[]}');
    const narrowed = { ...LOOPBACK_ALLOWED, allowedHosts: new Set(['models.example']) };
    const client = new ChatCompletionsClient({
      baseUrl: at(peer),
      retry: noWait,
      ...ownerTransport({ policy: narrowed, resolve: NO_DNS, report: () => undefined }),
    });
    await expect(client.listModels(new AbortController().signal)).rejects.toMatchObject({ kind: 'unreachable' });
    expect(peer.reached()).toBe(0);
  });
});
