import { describe, expect, it } from 'vitest';
import { RUN_TOOLS } from '../http/mcp/tools/runTools.js';
import { MCP_CLIENTS, mcpSnippet } from './mcpSnippets.js';

describe('helix mcp config snippets', () => {
  it.each(MCP_CLIENTS)('%s: names the URL and the token variable, never a token', (client) => {
    const { text, note } = mcpSnippet(client, { url: 'http://127.0.0.1:1522/mcp', tokenEnv: 'HELIX_MCP_TOKEN' });
    expect(text).toContain('http://127.0.0.1:1522/mcp');
    expect(text).toContain('HELIX_MCP_TOKEN');
    expect(`${text}${note}`).not.toMatch(/hlx_[A-Za-z0-9_-]{8,}|eyJ/);
  });

  it('JSON snippets parse as JSON, so they can be redirected straight into the settings file', () => {
    for (const client of ['claude', 'gemini'] as const) {
      const parsed = JSON.parse(mcpSnippet(client, { url: 'http://127.0.0.1:9/mcp', tokenEnv: 'T' }).text);
      expect(Object.keys(parsed.mcpServers)).toEqual(['helix']);
    }
  });

  it('codex and openai list exactly the run tools', () => {
    for (const client of ['codex', 'openai'] as const) {
      const { text } = mcpSnippet(client, { url: 'http://127.0.0.1:9/mcp', tokenEnv: 'T' });
      for (const tool of RUN_TOOLS) expect(text).toContain(tool.name);
    }
  });
});
