import { OAUTH_SCOPES, OPERATION_SCOPES, type OAuthScope } from '../domain/scopes.js';
import type { ToolDefinition } from '../http/mcp/toolDefinition.js';
import { AGENT_TASK_SURFACE } from '../http/mcp/tools/agentTaskTools.js';
import { DEVICE_CHECK_TOOL } from '../http/mcp/tools/deviceCheckTool.js';
import { EMBODIMENT_TOOLS } from '../http/mcp/tools/embodimentTools.js';
import { ROOM_TOOLS } from '../http/mcp/tools/roomTools.js';
import { RUN_TOOLS } from '../http/mcp/tools/runTools.js';

export const MCP_CLIENTS = ['codex', 'claude', 'gemini', 'openai'] as const;
export type McpClientName = (typeof MCP_CLIENTS)[number];

/** bearer: the client sends a token from an environment variable; oauth: Codex signs in itself (D-02). */
export const MCP_AUTH_MODES = ['bearer', 'oauth'] as const;
export type McpAuthMode = (typeof MCP_AUTH_MODES)[number];

/**
 * Which tools a Codex snippet enables: the six run tools, those plus the room tools (DSC-02), or
 * those plus the agent-task tools at `/mcp/codex` (ATP-02, ATP-06; docs/agent-tasks.md).
 */
export const MCP_PROFILES = ['runs', 'rooms', 'agent-task'] as const;
export type McpProfile = (typeof MCP_PROFILES)[number];

export interface SnippetInput {
  readonly url: string;
  /** The environment variable the client reads the bearer from; the token itself is never printed. */
  readonly tokenEnv: string;
  /** Default `bearer`. */
  readonly auth?: McpAuthMode;
  /** The canonical resource (RFC 8707) the OAuth variant names as `oauth_resource`; default the URL. */
  readonly resource?: string;
  /** Default `runs`. */
  readonly profile?: McpProfile;
}

/**
 * The profile's tools, taken from the server's own tool tables so a snippet never enables a tool
 * the server lacks. The spec's Codex example (DSC-02) also lists the environment tools
 * (`helix_environment_device_check`, `helix_minecraft_*`): the Device Check is in the rooms
 * profile; the Minecraft tools join it when the server has them.
 */
export const profileTools = (profile: McpProfile): readonly ToolDefinition[] => {
  if (profile === 'runs') return RUN_TOOLS;
  if (profile === 'agent-task') return [...RUN_TOOLS, ...AGENT_TASK_SURFACE];
  return [...RUN_TOOLS, ...ROOM_TOOLS, DEVICE_CHECK_TOOL, ...EMBODIMENT_TOOLS];
};

/** Every OAuth scope the profile's tools declare (MCP-02), in the registry's order. */
export const profileScopes = (profile: McpProfile): OAuthScope[] => {
  const needed = new Set(profileTools(profile).flatMap((t) => OPERATION_SCOPES[t.operation].oauth));
  return OAUTH_SCOPES.filter((s) => needed.has(s));
};

const toolNames = (profile: McpProfile): string[] => profileTools(profile).map((t) => t.name);

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
  codex: ({ tokenEnv, auth }) =>
    auth === 'oauth'
      ? "add to ~/.codex/config.toml (or a trusted project's .codex/config.toml), then sign in with: codex mcp login helix"
      : `add to ~/.codex/config.toml (or a trusted project's .codex/config.toml); export ${tokenEnv} before starting Codex`,
  claude: ({ url, tokenEnv }) =>
    `save as .mcp.json in your project (Claude Code expands \${${tokenEnv}}), or run: claude mcp add --transport http helix ${url} --header 'Authorization: Bearer \${${tokenEnv}}'`,
  gemini: ({ tokenEnv }) => `merge into ~/.gemini/settings.json (Gemini CLI expands $${tokenEnv} from the environment)`,
  openai: () =>
    'OpenAI calls the MCP server from its own network: server_url must be a public HTTPS address of this Helix',
};

const tomlList = (values: readonly string[]): string => `[${values.map((v) => `"${v}"`).join(', ')}]`;

/**
 * DSC-02: the bearer variant names the token variable; the OAuth variant names the canonical
 * resource and the scopes instead, and has no `bearer_token_env_var`, which is what makes Codex
 * discover OAuth (`codex mcp login helix`).
 */
const codexToml = ({ url, tokenEnv, auth = 'bearer', resource = url, profile = 'runs' }: SnippetInput): string =>
  [
    '[mcp_servers.helix]',
    `url = "${url}"`,
    ...(auth === 'oauth'
      ? [`oauth_resource = "${resource}"`, `scopes = ${tomlList(profileScopes(profile))}`]
      : [`bearer_token_env_var = "${tokenEnv}"`]),
    `enabled_tools = ${tomlList(toolNames(profile))}`,
    'enabled = true',
    'required = false',
    'startup_timeout_sec = 20',
    'tool_timeout_sec = 360',
    '',
  ].join('\n');

const snippetText = (client: McpClientName, input: SnippetInput): string => {
  const { url, tokenEnv } = input;
  switch (client) {
    case 'codex':
      return codexToml(input);
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
        `    allowed_tools: [${toolNames('runs')
          .map((n) => `'${n}'`)
          .join(', ')}],`,
        "    require_approval: 'always',",
        '  }],',
        '});',
        '',
      ].join('\n');
  }
};
