import { describe, expect, it } from 'vitest';
import { ScopeSet } from '../domain/scopes.js';
import { agentExecutorHash } from './agentExecutor.js';
import type { Principal } from './principal.js';

const SECRET = 'test-instance-secret-0123456789abcdef';
const base: Principal = {
  kind: 'api_key',
  tenantId: 'tenant-a',
  issuer: 'urn:helix:api-key',
  subject: 'account-a',
  accountId: 'account-a',
  scopes: new ScopeSet(['agent.write']),
  credentialId: 'key_a',
  linkedAccount: true,
};
/** An OAuth principal's credentialId is its binding ref, whatever the token's jti (authenticate.ts). */
const oauth = (clientId?: string): Principal => ({
  ...base,
  kind: 'oauth_jwt',
  issuer: 'https://issuer.example',
  subject: 'user-1',
  credentialId: 'binding_1',
  ...(clientId === undefined ? {} : { clientId }),
});

describe('ATP-31: the identity of the credential that executed agent work', () => {
  it('tells two keys of one owner apart, and is a keyed hash that names neither', () => {
    const a = agentExecutorHash(base, SECRET);
    expect(agentExecutorHash({ ...base, credentialId: 'key_b' }, SECRET)).not.toBe(a);
    expect(agentExecutorHash(base, SECRET)).toBe(a);
    expect(agentExecutorHash(base, `${SECRET}-other`)).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toContain('key_a');
  });

  it("names an OAuth token by its binding and client, so every token of the agent's client is the agent", () => {
    const agent = agentExecutorHash(oauth('codex-cli'), SECRET);
    expect(agentExecutorHash(oauth('codex-cli'), SECRET)).toBe(agent);
    expect(agentExecutorHash(oauth('chat-connector'), SECRET)).not.toBe(agent);
    // A token naming no client is one identity for every such token of its binding.
    expect(agentExecutorHash(oauth(), SECRET)).not.toBe(agent);
  });
});
