import { randomIdHex } from '../domain/identifierEntropy.js';
import { isCredentialShaped } from '../domain/credentialShape.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,160}$/;

/**
 * X-Request-Id: a safe caller value (<= 160 chars of a conservative alphabet, nothing
 * credential-shaped) is kept; anything else is replaced by a server id and never reflected.
 */
export const pickRequestId = (header: string | string[] | undefined): string => {
  if (typeof header === 'string' && SAFE_REQUEST_ID.test(header) && !isCredentialShaped(header)) return header;
  return `req_${randomIdHex(12)}`;
};
