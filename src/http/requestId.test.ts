import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCredentialShaped } from '../domain/credentialShape.js';
import { pickRequestId } from './requestId.js';

describe('pickRequestId', () => {
  it('never returns a credential-shaped or over-long value, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom('hlx_abc', 'Bearer x', 'eyJhbGciOi', 'a\r\nb')),
        (input) => {
          const id = pickRequestId(input);
          expect(id.length).toBeLessThanOrEqual(160);
          expect(isCredentialShaped(id)).toBe(false);
          expect(id).toMatch(/^[A-Za-z0-9._:@/+=-]+$/);
        },
      ),
    );
  });

  it('keeps safe values exactly', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{1,40}$/), (safe) => {
        fc.pre(!isCredentialShaped(safe));
        expect(pickRequestId(safe)).toBe(safe);
      }),
    );
  });
});
