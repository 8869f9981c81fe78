import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_FEATURES,
  AccountPolicyError,
  admitsCapability,
  applyPolicyChange,
  DENY_ALL,
  effectivePolicy,
  featuresFrom,
  NO_OVERRIDES,
  parseOverrides,
  serializeOverrides,
  type AccountPolicy,
} from './accountPolicy.js';

const DEFAULTS: AccountPolicy = {
  features: featuresFrom(['model_providers']),
  defaultCapability: 'admit',
  capabilities: {},
};
const LIB = 'research-library.read_document';

describe('account policy', () => {
  it('follows the deployment default until the operator sets something', () => {
    const policy = effectivePolicy(DEFAULTS, NO_OVERRIDES);
    expect(admitsCapability(policy, LIB)).toBe(true);
    expect(policy.features).toEqual({ shared_live_room: false, developer: false, model_providers: true });
  });

  it('an explicit entry wins over the default, and "default" (null) removes it again', () => {
    const denied = applyPolicyChange(NO_OVERRIDES, { capabilities: { [LIB]: 'deny' }, features: { developer: true } });
    expect(admitsCapability(effectivePolicy(DEFAULTS, denied), LIB)).toBe(false);
    expect(admitsCapability(effectivePolicy(DEFAULTS, denied), 'internet-search.search_web')).toBe(true);
    expect(effectivePolicy(DEFAULTS, denied).features.developer).toBe(true);
    const restored = applyPolicyChange(denied, { capabilities: { [LIB]: null }, features: { developer: null } });
    expect(restored).toEqual(NO_OVERRIDES);
  });

  it('a closed default admits only what is admitted by name', () => {
    const overrides = applyPolicyChange(NO_OVERRIDES, { defaultCapability: 'deny', capabilities: { [LIB]: 'admit' } });
    const policy = effectivePolicy(DEFAULTS, overrides);
    expect(admitsCapability(policy, LIB)).toBe(true);
    expect(admitsCapability(policy, 'internet-search.search_web')).toBe(false);
  });

  it('never treats an inherited object key as a capability entry', () => {
    const policy = effectivePolicy({ ...DEFAULTS, defaultCapability: 'deny' }, NO_OVERRIDES);
    for (const key of ['toString', 'constructor', '__proto__', 'hasOwnProperty'])
      expect(admitsCapability(policy, key)).toBe(false);
  });

  it('refuses capability ids that are not ids', () => {
    expect(() => applyPolicyChange(NO_OVERRIDES, { capabilities: { 'Bad Id': 'deny' } })).toThrow(AccountPolicyError);
  });

  it('round-trips what it stores', () => {
    const arbitraryOverrides = fc.record({
      features: fc.dictionary(fc.constantFrom(...ACCOUNT_FEATURES), fc.boolean()),
      capabilities: fc.dictionary(
        fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,30}$/),
        fc.constantFrom('admit' as const, 'deny' as const),
      ),
    });
    fc.assert(
      fc.property(
        arbitraryOverrides,
        fc.option(fc.constantFrom('admit' as const, 'deny' as const), { nil: undefined }),
        (base, defaultCapability) => {
          const overrides = { ...base, ...(defaultCapability === undefined ? {} : { defaultCapability }) };
          expect(parseOverrides(serializeOverrides(overrides))).toEqual(overrides);
        },
      ),
    );
  });

  it.each([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['a feature that is not a boolean', '{"features":{"developer":"yes"},"capabilities":{}}'],
    ['an unknown decision', '{"features":{},"capabilities":{"research-library.read_document":"maybe"}}'],
    ['a bad default', '{"features":{},"capabilities":{},"default_capability":"sometimes"}'],
  ])('an unreadable stored policy (%s) is not read as anything', (_label, json) => {
    expect(parseOverrides(json)).toBeUndefined();
    expect(admitsCapability(DENY_ALL, LIB)).toBe(false);
    expect(Object.values(DENY_ALL.features)).not.toContain(true);
  });
});
