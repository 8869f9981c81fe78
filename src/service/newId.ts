import { randomIdBase64url } from '../domain/identifierEntropy.js';

/** A fresh identifier with its kind's prefix (`run_…`, `turn_…`, `wkr_…`): 128 random bits, base64url. */
export const newId = (prefix: string): string => `${prefix}_${randomIdBase64url(16)}`;
