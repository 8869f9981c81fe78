import { Command, Option } from 'commander';
import {
  MCP_AUTH_MODES,
  MCP_CLIENTS,
  MCP_PROFILES,
  mcpSnippet,
  type McpAuthMode,
  type McpClientName,
  type McpProfile,
  type SnippetInput,
} from './mcpSnippets.js';
import { CliError } from './options.js';

export interface McpConfigOptions {
  readonly client: McpClientName;
  readonly url: string;
  readonly tokenEnv: string;
  readonly auth: McpAuthMode;
  readonly profile: McpProfile;
  readonly resource?: string;
}

const absoluteUrl = (value: string, flag: string): string => {
  try {
    return new URL(value).toString();
  } catch {
    throw new CliError(`${flag} must be an absolute URL such as http://127.0.0.1:1522/mcp`, 2);
  }
};

/**
 * ATP-02: the agent-task profile connects Codex to `/mcp/codex`, the Codex presentation of the same
 * tools; a `--url` naming the `/mcp` endpoint is pointed there. The OAuth resource stays `/mcp`'s.
 */
const endpointOf = (url: string, profile: McpProfile): string => {
  if (profile !== 'agent-task') return url;
  const parsed = new URL(url);
  if (parsed.pathname.replace(/\/$/, '') === '/mcp') parsed.pathname = '/mcp/codex';
  return parsed.toString();
};

/**
 * Checks the flags together (exit code 2 on a bad combination). The OAuth variant and the rooms
 * profile exist for Codex only (D-02); the Gemini and OpenAI snippets stay run tools only (DSC-03).
 * `tokenEnvGiven` says whether `--token-env` was typed: the OAuth variant has no token variable.
 */
export const snippetInputFrom = (options: McpConfigOptions, tokenEnvGiven: boolean): SnippetInput => {
  const url = absoluteUrl(options.url, '--url');
  if (!/^[A-Z_][A-Z0-9_]{0,63}$/.test(options.tokenEnv))
    throw new CliError('--token-env must be an environment variable name like HELIX_MCP_TOKEN', 2);
  if (options.client !== 'codex' && (options.auth !== 'bearer' || options.profile !== 'runs'))
    throw new CliError(
      '--auth oauth and --profile rooms|agent-task are for --client codex; the other clients get the run tools with a bearer',
      2,
    );
  if (options.auth === 'oauth' && tokenEnvGiven)
    throw new CliError('--token-env applies to --auth bearer; with --auth oauth Codex signs in itself', 2);
  if (options.auth !== 'oauth' && options.resource !== undefined)
    throw new CliError('--resource applies to --auth oauth', 2);
  // Without a configured audience Helix names the MCP endpoint's URL as its resource.
  const resource = options.resource === undefined ? url : absoluteUrl(options.resource, '--resource');
  return {
    url: endpointOf(url, options.profile),
    tokenEnv: options.tokenEnv,
    auth: options.auth,
    resource,
    profile: options.profile,
  };
};

export const mcpCommand = (): Command => {
  const mcp = new Command('mcp').description('connect MCP clients to Helix');
  const config = mcp
    .command('config')
    .description(
      'print a connection snippet for an MCP client (no token inside; the token comes from an environment variable or an OAuth sign-in)',
    )
    .addOption(new Option('--client <client>', 'the MCP client').choices([...MCP_CLIENTS]).makeOptionMandatory())
    .option('--url <url>', 'Helix MCP endpoint', 'http://127.0.0.1:1522/mcp')
    .option(
      '--token-env <name>',
      'environment variable holding the bearer (an hlx_ key or an access token)',
      'HELIX_MCP_TOKEN',
    )
    .addOption(
      new Option('--auth <mode>', 'codex: a bearer variable, or OAuth (codex mcp login)')
        .choices([...MCP_AUTH_MODES])
        .default('bearer'),
    )
    .addOption(
      new Option(
        '--profile <tools>',
        'codex: the run tools, the run and room tools, or the run and agent-task tools at /mcp/codex',
      )
        .choices([...MCP_PROFILES])
        .default('runs'),
    )
    .option('--resource <uri>', "with --auth oauth: the server's canonical resource (default: --url)");
  config.action((options: McpConfigOptions) => {
    const input = snippetInputFrom(options, config.getOptionValueSource('tokenEnv') === 'cli');
    const snippet = mcpSnippet(options.client, input);
    process.stderr.write(`# ${snippet.note}\n`);
    process.stdout.write(snippet.text);
  });
  return mcp;
};
