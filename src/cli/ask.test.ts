import { describe, expect, it } from 'vitest';
import { bearerFromEnv } from './ask.js';

describe('helix ask: the bearer from the environment', () => {
  it('reads HELIX_TOKEN, else HELIX_MCP_TOKEN (the MCP snippets’ name), so one exported key serves both', () => {
    expect(bearerFromEnv({ HELIX_TOKEN: 'hlx_a', HELIX_MCP_TOKEN: 'hlx_b' }, undefined)).toEqual({
      name: 'HELIX_TOKEN',
      token: 'hlx_a',
    });
    expect(bearerFromEnv({ HELIX_MCP_TOKEN: 'hlx_b' }, undefined)).toEqual({ name: 'HELIX_MCP_TOKEN', token: 'hlx_b' });
    expect(bearerFromEnv({ HELIX_TOKEN: '', HELIX_MCP_TOKEN: 'hlx_b' }, undefined).token).toBe('hlx_b');
  });

  it('reads only the variable --token-env names, and names the one to set when none is', () => {
    expect(bearerFromEnv({ HELIX_TOKEN: 'hlx_a', MY_KEY: 'hlx_c' }, 'MY_KEY')).toEqual({
      name: 'MY_KEY',
      token: 'hlx_c',
    });
    expect(bearerFromEnv({ HELIX_TOKEN: 'hlx_a' }, 'MY_KEY')).toEqual({ name: 'MY_KEY', token: undefined });
    expect(bearerFromEnv({}, undefined)).toEqual({ name: 'HELIX_TOKEN', token: undefined });
  });
});
