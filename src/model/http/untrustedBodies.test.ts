import { describe, expect, it } from 'vitest';
import { endlessResponse } from '../../../test/support/endlessResponse.js';
import { chatFailures } from '../chat/chatFailures.js';
import { classifyHttpFailure, responsesFailures } from '../responses/failures.js';
import { fetchModelList } from './modelList.js';

/** An error body that never ends: the start of a JSON error message, then more of it forever. */
const ENDLESS_ERROR = `{"error":{"message":"${'x'.repeat(4096)}`;

describe('untrusted bodies stay bounded', () => {
  it('an endless Responses error body is classified from its first bytes, not buffered forever', async () => {
    const { response, state } = endlessResponse(500, ENDLESS_ERROR);
    const error = await classifyHttpFailure(response, 0);
    expect(error).toMatchObject({ kind: 'server', details: { retryable: true, httpStatus: 500 } });
    expect(state.cancelled).toBe(true);
  });

  it('an endless Chat Completions error body likewise', async () => {
    const { response, state } = endlessResponse(400, ENDLESS_ERROR);
    const error = await chatFailures.classifyHttpFailure(response, 0);
    expect(error).toMatchObject({ kind: 'bad_request', details: { httpStatus: 400 } });
    expect(state.cancelled).toBe(true);
  });

  it('an endless model list is a protocol error', async () => {
    const { response, state } = endlessResponse(200, `{"data":[${'{"id":"m"},'.repeat(1000)}`);
    const failure = await fetchModelList(
      async () => response,
      new AbortController().signal,
      responsesFailures,
      () => 0,
    ).catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: 'protocol', details: { retryable: false } });
    expect(state.cancelled).toBe(true);
  });
});
