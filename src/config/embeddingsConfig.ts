import type { EmbeddingsSettings } from '../model/embeddings/embeddingsSettings.js';
import { checkBaseUrlShape } from '../net/baseUrlPolicy.js';
import { ConfigError, secretValue, value, type Env } from './env.js';

const baseUrl = (env: Env): string => {
  const own = value(env, 'HELIX_EMBEDDINGS_BASE_URL');
  const name = own === undefined ? 'HELIX_MODEL_BASE_URL' : 'HELIX_EMBEDDINGS_BASE_URL';
  const raw = own ?? value(env, 'HELIX_MODEL_BASE_URL');
  if (raw === undefined) {
    throw new ConfigError(
      'HELIX_EMBEDDINGS_BASE_URL (or HELIX_MODEL_BASE_URL) is required when HELIX_EMBEDDINGS_MODEL is set',
    );
  }
  const check = checkBaseUrlShape(raw);
  if (!check.ok) throw new ConfigError(`${name} ${check.reason}`);
  return check.url;
};

/**
 * The optional embeddings endpoint of hybrid library search (docs/configuration.md). Unset
 * HELIX_EMBEDDINGS_MODEL turns embeddings off: nothing is sent anywhere and search stays lexical.
 * The URL and key default to the chat model's, since one local server usually serves both.
 */
export const embeddingsConfig = (env: Env, production: boolean): EmbeddingsSettings | undefined => {
  const model = value(env, 'HELIX_EMBEDDINGS_MODEL');
  if (model === undefined) return undefined;
  if (model.length > 200 || !/^[\p{L}\p{N}\p{P}\p{S} ]+$/u.test(model))
    throw new ConfigError('HELIX_EMBEDDINGS_MODEL must be a model name of at most 200 printable characters');
  const apiKey =
    secretValue(env, 'HELIX_EMBEDDINGS_API_KEY', production) ?? secretValue(env, 'HELIX_MODEL_API_KEY', production);
  return { baseUrl: baseUrl(env), model, ...(apiKey === undefined ? {} : { apiKey }) };
};
