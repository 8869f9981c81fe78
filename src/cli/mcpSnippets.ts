import { RUN_TOOLS } from '../http/mcp/tools/runTools.js';

export const MCP_CLIENTS = ['codex', 'claude', 'gemini', 'openai'] as const;
export type McpClientName = (typeof MCP_CLIENTS)[number];

export interface SnippetInput {
  readonly url: string;
  /** The environment variable the client reads the bearer from; the token itself is never printed. */
  readonly tokenEnv: string;
}

const toolNames = (): string[] => RUN_TOOLS.map((t) => t.name);

export interface Snippet {
  /** Exactly what to paste or save (stdout, so it can be redirected into the file). */
  readonly text: string;
  /** Where it goes; printed on stderr. */
  readonly note: string;
}

/** Ready-to-paste connection snippets for each supported client. None contains a credential. */
export const mcpSnippet = (client: McpClientName, input: SnippetInput): Snippet => ({
  text: snippetText(client, input),
  note: NOTES[client](input),
});

const NOTES: { readonly [C in McpClientName]: (input: SnippetInput) => string } = {
  codex: ({ tokenEnv }) =>
    `add to ~/.codex/config.toml (or a trusted project's .codex/config.toml); export ${tokenEnv} before starting Codex`,
  claude: ({ url, tokenEnv }) =>
    `save as .mcp.json in your project (Claude Code expands \${${tokenEnv}}), or run: claude mcp add --transport http helix ${url} --header 'Authorization: Bearer \${${tokenEnv}}'`,
  gemini: ({ tokenEnv }) => `merge into ~/.gemini/settings.json (Gemini CLI expands $${tokenEnv} from the environment)`,
  openai: () =>
    'OpenAI calls the MCP server from its own network: server_url must be a public HTTPS address of this Helix',
};

const snippetText = (client: McpClientName, { url, tokenEnv }: SnippetInput): string => {
  switch (client) {
    case 'codex':
      return [
        '[mcp_servers.helix]',
        `url = "${url}"`,
        `bearer_token_env_var = "${tokenEnv}"`,
        `enabled_tools = [${toolNames()
          .map((n) => `"${n}"`)
          .join(', ')}]`,
        'startup_timeout_sec = 20',
        'tool_timeout_sec = 360',
        '',
      ].join('\n');
    case 'claude':
      return `${JSON.stringify({ mcpServers: { helix: { type: 'http', url, headers: { Authorization: `Bearer \${${tokenEnv}}` } } } }, null, 2)}\n`;
    case 'gemini':
      return `${JSON.stringify({ mcpServers: { helix: { httpUrl: url, headers: { Authorization: `Bearer $${tokenEnv}` } } } }, null, 2)}\n`;
    case 'openai':
      return [
        'const response = await openai.responses.create({',
        '  model: process.env.OPENAI_MODEL,',
        "  input: 'Inspect this bounded research objective using admitted evidence.',",
        '  tools: [{',
        "    type: 'mcp',",
        "    server_label: 'helix',",
        `    server_url: '${url}',`,
        `    authorization: process.env.${tokenEnv},`,
        `    allowed_tools: [${toolNames()
          .map((n) => `'${n}'`)
          .join(', ')}],`,
        "    require_approval: 'always',",
        '  }],',
        '});',
        '',
      ].join('\n');
  }
};
