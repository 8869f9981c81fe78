/**
 * What a run needs to reach a model: which wire protocol, where, as whom, which model. One shape
 * for an owner's registration (decrypted at use) and for the operator default from the environment.
 */
export const PROVIDER_KINDS = ['openai-responses', 'chat-completions', 'codex-subscription'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Owners may register only the kinds that take a base URL and an API key; the subscription is the operator's. */
export const REGISTRABLE_PROVIDER_KINDS = ['openai-responses', 'chat-completions'] as const;
export type RegistrableProviderKind = (typeof REGISTRABLE_PROVIDER_KINDS)[number];

export const REASONING_EFFORTS = ['low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** An HTTP provider: a base URL (no trailing slash) and, unless it is a keyless local server, an API key. */
export interface HttpProviderSettings {
  readonly kind: RegistrableProviderKind;
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly model: string;
  readonly reasoningEffort?: ReasoningEffort;
}

/** The ChatGPT subscription: endpoints and credentials come from src/model/codex, not from here. */
export interface CodexProviderSettings {
  readonly kind: 'codex-subscription';
  readonly model: string;
  readonly reasoningEffort?: ReasoningEffort;
}

export type ProviderSettings = HttpProviderSettings | CodexProviderSettings;
