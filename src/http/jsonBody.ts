import { HelixError } from '../domain/errors.js';

export const MAX_JSON_DEPTH = 64;

/**
 * Parses a JSON body after checking its nesting depth without recursion, so a 10,000-deep document
 * is a fast 400 instead of a stack overflow in a validator.
 */
export const parseJsonBody = (text: string): unknown => {
  if (text.trim() === '') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) {
        throw new HelixError('invalid_request', {
          issues: [{ path: '(root)', message: `nesting deeper than ${MAX_JSON_DEPTH}` }],
        });
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HelixError('invalid_request', { issues: [{ path: '(root)', message: 'body is not valid JSON' }] });
  }
};
