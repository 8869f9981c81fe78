import { containsCredential, isCredentialShaped } from '../../domain/credentialShape.js';
import { CHAT_CLAIM_HANDLE_PATTERN } from '../../domain/rooms.js';
import { PLAYER_ACTION_TOOL } from './tools/embodimentTools.js';
import { CHAT_CLAIM_TOOL } from './tools/roomTools.js';
import { OWNED_REF_TOOLS } from './tools/agentTaskTools.js';
import { OWNER_TOKEN_PREFIX } from '../../domain/agentTask.js';

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
 * MRT-12, SLR-10: a chat claim handle is credential-shaped, yet it is what the claim tool exists to
 * receive. The one exact place it is admitted, `arguments.request.claim_handle` of
 * helix_room_claim_chat_binding and only as a whole handle, is left out of the credential scan;
 * everything else (another tool, another field, the id, a key, a handle with more around it) is
 * still scanned and refused.
 */
const withoutAdmittedClaimHandle = (params: Record<string, unknown>): Record<string, unknown> => {
  if (params.name !== CHAT_CLAIM_TOOL || !isPlainObject(params.arguments)) return params;
  const { request } = params.arguments;
  if (!isPlainObject(request) || typeof request.claim_handle !== 'string') return params;
  if (!CHAT_CLAIM_HANDLE_PATTERN.test(request.claim_handle)) return params;
  const { claim_handle: _admitted, ...rest } = request;
  return { ...params, arguments: { ...params.arguments, request: rest } };
};

/** A compact JWS (header.payload.signature, base64url), as `helix approvals sign` prints it. */
const COMPACT_JWS = /^[A-Za-z0-9_-]{1,4096}\.[A-Za-z0-9_-]{1,8192}\.[A-Za-z0-9_-]{1,1024}$/;

/**
 * D-11, APR-10: a runtime approval receipt is a JWS, hence credential-shaped, yet the player action
 * tool exists to receive one. The one exact place it is admitted, `arguments.approval_receipt` of
 * helix_minecraft_player_action and only as a whole compact JWS, is left out of the credential
 * scan, as the chat claim handle is; anywhere else it is still refused.
 */
const withoutAdmittedReceipt = (params: Record<string, unknown>): Record<string, unknown> => {
  if (params.name !== PLAYER_ACTION_TOOL || !isPlainObject(params.arguments)) return params;
  const receipt = params.arguments.approval_receipt;
  if (typeof receipt !== 'string' || !COMPACT_JWS.test(receipt)) return params;
  const { approval_receipt: _admitted, ...rest } = params.arguments;
  return { ...params, arguments: rest };
};

const OWNER_TOKEN = new RegExp(`^${OWNER_TOKEN_PREFIX}[A-Za-z0-9_-]{16,128}$`);

/**
 * ATP-07, ATP-15: an agent task's owner token is credential-shaped, yet an owned reference exists
 * to carry one. The one exact place it is admitted, `arguments.ownedRef.ownerToken` of the
 * agent-task tools that take an owned reference, and only as a whole token, is left out of the
 * credential scan; anywhere else it is still refused.
 */
const withoutAdmittedOwnerToken = (params: Record<string, unknown>): Record<string, unknown> => {
  if (typeof params.name !== 'string' || !OWNED_REF_TOOLS.has(params.name) || !isPlainObject(params.arguments))
    return params;
  const { ownedRef } = params.arguments;
  if (!isPlainObject(ownedRef) || typeof ownedRef.ownerToken !== 'string' || !OWNER_TOKEN.test(ownedRef.ownerToken))
    return params;
  const { ownerToken: _admitted, ...rest } = ownedRef;
  return { ...params, arguments: { ...params.arguments, ownedRef: rest } };
};

/**
 * Checks the complete JSON-RPC envelope before the SDK sees it: one message (no batches), only
 * known keys, a well-formed id and method, and nothing credential-shaped anywhere (ids, method,
 * tool name, argument keys or values) but the claim tool's own handle, the player action's receipt and an owned reference's owner token. A refusal is answered with
 * INVALID_ENVELOPE.
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
    const scanned = withoutAdmittedOwnerToken(withoutAdmittedReceipt(withoutAdmittedClaimHandle(params)));
    return !containsCredential(scanned) && !hasPrototypeKey(params);
  }
  return !containsCredential(params) && !hasPrototypeKey(params);
};
