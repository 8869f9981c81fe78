import { AccountInputError, UnknownAccountError } from '../service/accounts/accountErrors.js';
import { CliError } from './options.js';

/** The use cases' refusals as one-line CLI errors: bad input exits 2, an unknown account 1. */
export const accountErrors = async <T>(fn: () => Promise<T>): Promise<T> => {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AccountInputError) throw new CliError(err.message, 2);
    if (err instanceof UnknownAccountError) throw new CliError(err.message);
    throw err;
  }
};
