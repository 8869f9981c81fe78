import { expect } from 'vitest';
import { ModelError } from '../../src/model/port.js';

/** Awaits a promise that must reject with a ModelError, and returns that error for assertions. */
export const rejectsWithModelError = async (promise: Promise<unknown>): Promise<ModelError> => {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
};
