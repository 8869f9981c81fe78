import { describe, expect, it } from 'vitest';
import { envelopeIsAcceptable } from './preflight.js';

const HANDLE = `hlxclm_${'a'.repeat(43)}`;
const RUN_ID = 'run_preflight01';
const call = (name: string, args: unknown, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const claim = (request: unknown) => call('helix_room_claim_chat_binding', { request });

describe('MRT-12, SLR-10: the chat claim handle is admitted only as its claim tool argument', () => {
  it('admits the exact request.claim_handle of helix_room_claim_chat_binding', () => {
    expect(envelopeIsAcceptable(claim({ claim_handle: HANDLE, run_id: RUN_ID }))).toBe(true);
  });

  it('refuses the same handle in another tool', () => {
    expect(
      envelopeIsAcceptable(call('helix_room_bind_run', { request: { claim_handle: HANDLE, run_id: RUN_ID } })),
    ).toBe(false);
    expect(envelopeIsAcceptable(call('helix_room_create', { idempotency_key: HANDLE, request: { title: 't' } }))).toBe(
      false,
    );
  });

  it('refuses it in another field, another level or as a key of the claim tool', () => {
    expect(envelopeIsAcceptable(claim({ claim_handle: HANDLE, run_id: HANDLE }))).toBe(false);
    expect(envelopeIsAcceptable(call('helix_room_claim_chat_binding', { claim_handle: HANDLE }))).toBe(false);
    expect(envelopeIsAcceptable(claim({ claim_handle: HANDLE, run_id: RUN_ID, extra: { claim_handle: HANDLE } }))).toBe(
      false,
    );
    expect(envelopeIsAcceptable(claim({ [HANDLE]: 'x', run_id: RUN_ID }))).toBe(false);
  });

  it('refuses a value that holds a handle but is not exactly one, or another credential in its place', () => {
    expect(envelopeIsAcceptable(claim({ claim_handle: `${HANDLE}x`, run_id: RUN_ID }))).toBe(false);
    expect(envelopeIsAcceptable(claim({ claim_handle: `see ${HANDLE}`, run_id: RUN_ID }))).toBe(false);
    expect(envelopeIsAcceptable(claim({ claim_handle: `hlx_${'k'.repeat(43)}`, run_id: RUN_ID }))).toBe(false);
  });

  it('refuses it as the JSON-RPC id or the tool name, and in the _meta of the claim call', () => {
    expect(envelopeIsAcceptable(claim({ claim_handle: 'x', run_id: RUN_ID, ...{} }))).toBe(true);
    expect(envelopeIsAcceptable({ ...claim({ claim_handle: HANDLE, run_id: RUN_ID }), id: HANDLE })).toBe(false);
    expect(envelopeIsAcceptable(call(HANDLE, { request: { claim_handle: HANDLE, run_id: RUN_ID } }))).toBe(false);
    const withMeta = claim({ claim_handle: HANDLE, run_id: RUN_ID });
    expect(envelopeIsAcceptable({ ...withMeta, params: { ...withMeta.params, _meta: { note: HANDLE } } })).toBe(false);
  });

  it('still refuses prototype keys next to an admitted handle', () => {
    const body = JSON.parse(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"helix_room_claim_chat_binding","arguments":{"request":{"claim_handle":"${HANDLE}","run_id":"${RUN_ID}","__proto__":{"x":1}}}}}`,
    );
    expect(envelopeIsAcceptable(body)).toBe(false);
  });
});
