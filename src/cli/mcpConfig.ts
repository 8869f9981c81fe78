import { Command, Option } from 'commander';
import { MCP_CLIENTS, mcpSnippet, type McpClientName } from './mcpSnippets.js';
import { CliError } from './options.js';

export const mcpCommand = (): Command => {
  const mcp = new Command('mcp').description('connect MCP clients to Helix');
  mcp
    .command('config')
    .description(
      'print a connection snippet for an MCP client (no token inside; the token comes from an environment variable)',
    )
    .addOption(new Option('--client <client>', 'the MCP client').choices([...MCP_CLIENTS]).makeOptionMandatory())
    .option('--url <url>', 'Helix MCP endpoint', 'http://127.0.0.1:1522/mcp')
    .option(
      '--token-env <name>',
      'environment variable holding the bearer (an hlx_ key or an access token)',
      'HELIX_MCP_TOKEN',
    )
    .action((options: { client: McpClientName; url: string; tokenEnv: string }) => {
      let url: URL;
      try {
        url = new URL(options.url);
      } catch {
        throw new CliError('--url must be an absolute URL such as http://127.0.0.1:1522/mcp', 2);
      }
      if (!/^[A-Z_][A-Z0-9_]{0,63}$/.test(options.tokenEnv))
        throw new CliError('--token-env must be an environment variable name like HELIX_MCP_TOKEN', 2);
      const snippet = mcpSnippet(options.client, { url: url.toString(), tokenEnv: options.tokenEnv });
      process.stderr.write(`# ${snippet.note}\n`);
      process.stdout.write(snippet.text);
    });
  return mcp;
};
