import { describe, expect, it } from 'vitest';
import { snippetInputFrom, type McpConfigOptions } from './mcpConfig.js';
import { CliError } from './options.js';

const BASE: McpConfigOptions = {
  client: 'codex',
  url: 'http://127.0.0.1:1522/mcp',
  tokenEnv: 'HELIX_MCP_TOKEN',
  auth: 'bearer',
  profile: 'runs',
};
/** The exit code and message a flag combination is refused with. */
const refusal = (options: Partial<McpConfigOptions>, tokenEnvGiven = false) => {
  try {
    snippetInputFrom({ ...BASE, ...options }, tokenEnvGiven);
    return undefined;
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return { code: err.exitCode, message: err.message };
  }
};

describe('helix mcp config flags (D-02, DSC-03)', () => {
  it('codex takes --auth oauth with --resource and --profile rooms', () => {
    expect(
      snippetInputFrom({ ...BASE, auth: 'oauth', profile: 'rooms', resource: 'https://helix.example.com/mcp' }, false),
    ).toMatchObject({ auth: 'oauth', profile: 'rooms', resource: 'https://helix.example.com/mcp' });
    expect(snippetInputFrom({ ...BASE, auth: 'oauth' }, false).resource).toBe('http://127.0.0.1:1522/mcp');
  });

  it('the agent-task profile points codex at /mcp/codex; its OAuth resource stays /mcp', () => {
    expect(snippetInputFrom({ ...BASE, profile: 'agent-task' }, false).url).toBe('http://127.0.0.1:1522/mcp/codex');
    expect(snippetInputFrom({ ...BASE, profile: 'agent-task', auth: 'oauth' }, false)).toMatchObject({
      url: 'http://127.0.0.1:1522/mcp/codex',
      resource: 'http://127.0.0.1:1522/mcp',
    });
    expect(refusal({ client: 'claude', profile: 'agent-task' })?.code).toBe(2);
  });

  it('the other clients stay bearer and run tools only (exit 2)', () => {
    for (const client of ['claude', 'gemini', 'openai'] as const) {
      expect(refusal({ client, auth: 'oauth' })?.code).toBe(2);
      expect(refusal({ client, profile: 'rooms' })?.code).toBe(2);
      expect(refusal({ client })).toBeUndefined();
    }
  });

  it('refuses flags that do not belong together, and bad values (exit 2)', () => {
    expect(refusal({ auth: 'oauth' }, true)).toMatchObject({
      code: 2,
      message: expect.stringContaining('--token-env'),
    });
    expect(refusal({ resource: 'https://helix.example.com/mcp' })).toMatchObject({
      code: 2,
      message: '--resource applies to --auth oauth',
    });
    expect(refusal({ auth: 'oauth', resource: 'helix' })?.message).toContain('--resource must be an absolute URL');
    expect(refusal({ url: 'nope' })?.message).toContain('--url must be an absolute URL');
    expect(refusal({ tokenEnv: 'lower-case' })?.code).toBe(2);
  });
});
