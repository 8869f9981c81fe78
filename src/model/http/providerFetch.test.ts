import { describe, expect, it } from 'vitest';
import { ModelError } from '../port.js';
import { providerFetch } from './providerFetch.js';

describe("a provider client's fetch", () => {
  it('tells a refused redirect as a protocol ModelError with the status, not retried', async () => {
    const send = providerFetch(
      async () => new Response(null, { status: 308, headers: { location: 'http://169.254.169.254/' } }),
    );
    const error = await send('https://api.example.test/v1/responses', { method: 'POST' }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: 'protocol', details: { retryable: false, httpStatus: 308 } });
    expect((error as Error).message).toBe('refused an HTTP 308 redirect from https://api.example.test');
  });

  it('lets a transport failure through as the send threw it, for the client to classify', async () => {
    const reset = new TypeError('fetch failed', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) });
    const send = providerFetch(async () => Promise.reject(reset));
    await expect(send('https://api.example.test/v1/models', { method: 'GET' })).rejects.toBe(reset);
  });
});
