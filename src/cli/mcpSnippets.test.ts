import { describe, expect, it } from 'vitest';
import { EMBODIMENT_TOOLS } from '../http/mcp/tools/embodimentTools.js';
import { ROOM_TOOLS } from '../http/mcp/tools/roomTools.js';
import { RUN_TOOLS } from '../http/mcp/tools/runTools.js';
import { MCP_CLIENTS, mcpSnippet, profileScopes } from './mcpSnippets.js';

const URL = 'http://127.0.0.1:1522/mcp';
/** The TOML lines of a Codex snippet as key -> raw value. */
const tomlKeys = (text: string): Map<string, string> =>
  new Map(
    text
      .split('\n')
      .filter((l) => l.includes(' = '))
      .map((l) => [l.slice(0, l.indexOf(' = ')), l.slice(l.indexOf(' = ') + 3)]),
  );
const tomlList = (raw: string | undefined): string[] => JSON.parse(raw ?? 'null');

describe('helix mcp config snippets', () => {
  it.each(MCP_CLIENTS)('%s: names the URL and the token variable, never a token', (client) => {
    const { text, note } = mcpSnippet(client, { url: URL, tokenEnv: 'HELIX_MCP_TOKEN' });
    expect(text).toContain(URL);
    expect(text).toContain('HELIX_MCP_TOKEN');
    expect(`${text}${note}`).not.toMatch(/hlx_[A-Za-z0-9_-]{8,}|eyJ/);
  });

  it('JSON snippets parse as JSON, so they can be redirected straight into the settings file', () => {
    for (const client of ['claude', 'gemini'] as const) {
      const parsed = JSON.parse(mcpSnippet(client, { url: 'http://127.0.0.1:9/mcp', tokenEnv: 'T' }).text);
      expect(Object.keys(parsed.mcpServers)).toEqual(['helix']);
    }
  });

  it('DSC-03: codex (default profile) and openai list exactly the run tools', () => {
    for (const client of ['codex', 'openai'] as const) {
      const { text } = mcpSnippet(client, { url: 'http://127.0.0.1:9/mcp', tokenEnv: 'T' });
      for (const tool of RUN_TOOLS) expect(text).toContain(tool.name);
      expect(text).not.toContain('helix_room_');
    }
  });

  it('DSC-02, D-02: the codex bearer variant names the variable, enables the run tools and the client settings', () => {
    const keys = tomlKeys(mcpSnippet('codex', { url: URL, tokenEnv: 'HELIX_MCP_TOKEN' }).text);
    expect(keys.get('bearer_token_env_var')).toBe('"HELIX_MCP_TOKEN"');
    expect(keys.has('oauth_resource')).toBe(false);
    expect(tomlList(keys.get('enabled_tools'))).toEqual(RUN_TOOLS.map((t) => t.name));
    expect(keys.get('enabled')).toBe('true');
    expect(keys.get('required')).toBe('false');
    expect(keys.get('startup_timeout_sec')).toBe('20');
    expect(keys.get('tool_timeout_sec')).toBe('360');
  });

  it('DSC-02, D-02: the codex OAuth variant names the resource and scopes and no bearer variable, so Codex signs in', () => {
    const input = {
      url: URL,
      tokenEnv: 'HELIX_MCP_TOKEN',
      auth: 'oauth',
      resource: 'https://helix.example.com/mcp',
    } as const;
    const { text, note } = mcpSnippet('codex', input);
    const keys = tomlKeys(text);
    expect(keys.get('url')).toBe(`"${URL}"`);
    expect(keys.get('oauth_resource')).toBe('"https://helix.example.com/mcp"');
    expect(tomlList(keys.get('scopes'))).toEqual(['helix.agent_runs.read', 'helix.agent_runs.write']);
    expect(keys.has('bearer_token_env_var')).toBe(false);
    expect(text).not.toContain('HELIX_MCP_TOKEN');
    expect(note).toContain('codex mcp login helix');
  });

  it('DSC-02: the rooms profile enables the run and room tools, and the OAuth variant asks for every scope they declare', () => {
    const text = mcpSnippet('codex', { url: URL, tokenEnv: 'T', auth: 'oauth', profile: 'rooms' }).text;
    const keys = tomlKeys(text);
    const enabled = tomlList(keys.get('enabled_tools'));
    expect(enabled).toEqual([
      ...[...RUN_TOOLS, ...ROOM_TOOLS].map((t) => t.name),
      'helix_environment_device_check',
      ...EMBODIMENT_TOOLS.map((t) => t.name),
    ]);
    expect(enabled).toContain('helix_room_bind_run');
    // The resource defaults to the URL: what Helix advertises when no audience is configured.
    expect(keys.get('oauth_resource')).toBe(`"${URL}"`);
    expect(tomlList(keys.get('scopes'))).toEqual([
      'helix.agent_runs.read',
      'helix.agent_runs.write',
      'helix.rooms.read',
      'helix.rooms.manage',
      'helix.room_sources.manage',
      'helix.environment_actions.read',
      'helix.environment_actions.write',
    ]);
    expect(profileScopes('rooms')).toEqual(tomlList(keys.get('scopes')));
  });
});
