import { check, type Check } from './report.js';

const PROVIDERS = [
  { id: 'provider.openai', variable: 'OPENAI_API_KEY', key: 'openaiKey' },
  { id: 'provider.gemini', variable: 'GEMINI_API_KEY', key: 'geminiKey' },
] as const;

/**
 * The contract's one-step provider invocations (OpenAI Responses / Gemini Interactions calling
 * this MCP server) need the provider to reach the target from its own network. This build makes
 * no provider calls: a configured key is reported as skipped, never used.
 */
export const providerChecks = (keys: { readonly openaiKey: string | undefined; readonly geminiKey: string | undefined }): Check[] =>
  PROVIDERS.map(({ id, variable, key }) =>
    keys[key] === undefined
      ? check(id, 'not_configured', `set ${variable} to request a provider invocation`)
      : check(id, 'skipped', 'provider invocation not available in this build'),
  );
