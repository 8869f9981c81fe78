import type { FailureReader } from './http/modelList.js';
import { ModelError } from './port.js';

/** Known secrets shorter than this are not masked: they could not be told apart from ordinary words. */
const MIN_MASKED_SECRET = 6;

/**
 * The error with every occurrence of a secret the client itself sent (an API key of any shape, an
 * account id) masked in its message and stack, and any stated field containing one dropped. Shape
 * masking alone misses keys that do not look like `sk-…` and account ids, which look like any UUID.
 */
export const withoutSecrets = (error: ModelError, secrets: Iterable<string>): ModelError => {
  const known = [...secrets].filter((secret) => secret.length >= MIN_MASKED_SECRET);
  const mask = (text: string): string =>
    known.reduce((masked, secret) => masked.split(secret).join('[redacted]'), text);
  const clean = (value: string | undefined): value is string => value !== undefined && mask(value) === value;
  const message = mask(error.message);
  const { providerType, providerCode, param, providerMessage, ...rest } = error.details;
  const statedMessage = providerMessage === undefined ? undefined : mask(providerMessage);
  if (
    message === error.message &&
    statedMessage === providerMessage &&
    [providerType, providerCode, param].every((v) => v === undefined || clean(v))
  )
    return error;
  const masked = new ModelError(error.kind, message, {
    ...rest,
    // Free text: the secret is masked in it, as in the message; an identifier holding one is dropped.
    ...(statedMessage !== undefined ? { providerMessage: statedMessage } : {}),
    ...(clean(providerType) ? { providerType } : {}),
    ...(clean(providerCode) ? { providerCode } : {}),
    ...(clean(param) ? { param } : {}),
  });
  if (error.stack !== undefined) masked.stack = mask(error.stack);
  return masked;
};

/**
 * A provider family's failure reading with `secrets` masked out of every error it produces. The
 * iterable is read at each failure, so secrets learnt later (a refreshed token) are masked too.
 */
export const maskingFailures = (failures: FailureReader, secrets: Iterable<string>): FailureReader => ({
  classifyHttpFailure: async (response, now) =>
    withoutSecrets(await failures.classifyHttpFailure(response, now), secrets),
  toModelError: (error, signal) => withoutSecrets(failures.toModelError(error, signal), secrets),
});
