import { containsCredential, isCredentialShaped } from '../../domain/credentialShape.js';

const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const TOOL_CALL_KEYS = new Set(['name', 'arguments', '_meta']);

/** The one static answer to a refused envelope: nothing from the request is echoed, not even its id. */
export const INVALID_ENVELOPE = {
  jsonrpc: '2.0',
  id: null,
  error: { code: -32600, message: 'Invalid Request' },
} as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Keys that reach object prototypes; validators drop or treat them specially, so they never pass. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const hasPrototypeKey = (value: unknown, depth = 0): boolean => {
  if (depth > 64) return true;
  if (Array.isArray(value)) return value.some((v) => hasPrototypeKey(v, depth + 1));
  if (!isPlainObject(value)) return false;
  return Object.keys(value).some((k) => PROTOTYPE_KEYS.has(k) || hasPrototypeKey(value[k], depth + 1));
};

/**
 * Checks the complete JSON-RPC envelope before the SDK sees it: one message (no batches), only
 * known keys, a well-formed id and method, and nothing credential-shaped anywhere (ids, method,
 * tool name, argument keys or values). A refusal is answered with INVALID_ENVELOPE.
 */
export const envelopeIsAcceptable = (body: unknown): boolean => {
  if (!isPlainObject(body)) return false;
  if (Object.keys(body).some((k) => !ENVELOPE_KEYS.has(k))) return false;
  if (body.jsonrpc !== '2.0') return false;
  const { id, method, params } = body;
  if (typeof method !== 'string' || method.length === 0 || method.length > 100 || isCredentialShaped(method))
    return false;
  if (id !== undefined) {
    const validId =
      (typeof id === 'string' && id.length <= 200 && !isCredentialShaped(id)) ||
      (typeof id === 'number' && Number.isSafeInteger(id));
    if (!validId) return false;
  }
  if (params === undefined) return true;
  if (!isPlainObject(params)) return false;
  if (method === 'tools/call') {
    if (Object.keys(params).some((k) => !TOOL_CALL_KEYS.has(k))) return false;
    if (typeof params.name !== 'string' || params.name.length > 128 || isCredentialShaped(params.name)) return false;
    if (params.arguments !== undefined && !isPlainObject(params.arguments)) return false;
  }
  return !containsCredential(params) && !hasPrototypeKey(params);
};
