import type { z } from 'zod';
import { HelixError } from '../domain/errors.js';

const MAX_ISSUES = 20;

/**
 * Validates input against a contract schema. Issue messages name the path and rule only; they
 * never echo the rejected value, so nothing a caller sent (a token pasted by mistake) is reflected.
 */
export const parseInput = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> => {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.code === 'unrecognized_keys' ? 'unknown field' : safeMessage(issue.message),
  }));
  throw new HelixError('invalid_request', { issues });
};

const safeMessage = (message: string): string => message.replace(/"[^"]*"/g, '…').slice(0, 200);
