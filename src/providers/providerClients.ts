import type { ProviderSettings } from './providerSettings.js';
import { ChatCompletionsClient } from '../model/chat/chatCompletions.js';
import { CodexCredentials } from '../model/codex/codexCredentials.js';
import { CodexResponsesClient } from '../model/codex/codexResponses.js';
import type { CredentialDocumentStore } from '../model/codex/credentialStore.js';
import type { CodexEndpoints } from '../model/codex/endpoints.js';
import { ResponsesGatewayClient } from '../model/gateway/responsesGateway.js';
import type { FailureDecorator } from '../model/http/modelList.js';
import type { ProviderFetch } from '../model/http/providerFetch.js';
import type { ModelClient } from '../model/port.js';

/** What the subscription needs that settings do not carry: where the operator's login lives. */
export interface CodexBinding {
  readonly store: CredentialDocumentStore;
  /** The local owner whose `helix login codex` the server uses (the operator's). */
  readonly ownerKey: string;
  readonly endpoints: CodexEndpoints;
  readonly version: string;
}

/**
 * How an HTTP provider's requests go out and how its failures are read, when not the defaults (the
 * global fetch without redirects, every failure told as it is). Owner registrations get theirs
 * from src/providers/ownerTransport.ts; the Codex subscription never takes one.
 */
export interface HttpTransport {
  readonly fetchImpl: ProviderFetch;
  readonly failures: FailureDecorator;
}

/**
 * Builds the client for one provider setting. Clients hold no connection and do no I/O until
 * asked, so building one per turn is cheap and keeps a decrypted key no longer than the turn.
 */
export const modelClientFor = (
  settings: ProviderSettings,
  codex: CodexBinding,
  transport?: HttpTransport,
): ModelClient => {
  switch (settings.kind) {
    case 'openai-responses':
      return new ResponsesGatewayClient({
        baseUrl: settings.baseUrl,
        ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
        ...transport,
      });
    case 'chat-completions':
      return new ChatCompletionsClient({
        baseUrl: settings.baseUrl,
        ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
        ...transport,
      });
    case 'codex-subscription':
      return new CodexResponsesClient({
        credentials: new CodexCredentials({ store: codex.store, ownerKey: codex.ownerKey, endpoints: codex.endpoints }),
        endpoints: codex.endpoints,
        version: codex.version,
      });
  }
};
