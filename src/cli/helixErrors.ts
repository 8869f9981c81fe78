import { isHelixError } from '../domain/errors.js';
import { CliError } from './options.js';

/** A use case's refusal as a one-line CLI error: `code: detail`, bad input exits 2, the rest 1. */
export const helixErrors = async <T>(fn: () => Promise<T>): Promise<T> => {
  try {
    return await fn();
  } catch (err) {
    if (!isHelixError(err)) throw err;
    const detail = err.details.issues?.map((i) => `${i.path} ${i.message}`).join('; ');
    throw new CliError(`${err.code}: ${detail ?? err.message}`, err.code === 'invalid_request' ? 2 : 1);
  }
};
