import { Command, Option } from 'commander';
import { loadConfig } from '../config.js';
import { FileCredentialDocumentStore } from '../model/codex/credentialStore.js';
import { ModelError, type ModelInfo } from '../model/port.js';
import { modelClientFor } from '../providers/providerClients.js';
import type { ProviderSettings } from '../providers/providerSettings.js';
import { HELIX_VERSION } from '../version.js';
import { CliError } from './options.js';

const LIST_TIMEOUT_MS = 30_000;

const describe = (model: ModelInfo): string => {
  const parts = [model.id];
  if (model.displayName !== model.id) parts.push(`(${model.displayName})`);
  if (model.reasoningLevels.length > 0)
    parts.push(
      `reasoning: ${model.reasoningLevels.join(', ')}${model.defaultReasoningLevel === null ? '' : ` [default ${model.defaultReasoningLevel}]`}`,
    );
  if (model.contextWindow !== null) parts.push(`context: ${model.contextWindow}`);
  return parts.join('  ');
};

/**
 * `helix models`: the models the operator's provider offers (HELIX_MODEL_PROVIDER), or those of
 * the local Codex subscription login with `--provider codex-subscription`.
 */
export const modelsCommand = (): Command =>
  new Command('models')
    .description("list the models the configured provider offers (HELIX_MODEL_PROVIDER), or the Codex subscription's")
    .addOption(
      new Option(
        '--provider <kind>',
        "list the Codex subscription's models even when another provider is configured",
      ).choices(['codex-subscription']),
    )
    .option('--json', 'print the list as JSON')
    .action(async (options: { provider?: 'codex-subscription'; json?: boolean }) => {
      const config = loadConfig(process.env);
      const settings: ProviderSettings | undefined =
        options.provider === 'codex-subscription'
          ? { kind: 'codex-subscription', model: '' }
          : config.model.defaultProvider;
      if (settings === undefined) {
        throw new CliError(
          'no model provider is configured: set HELIX_MODEL_PROVIDER (docs/models.md), or pass --provider codex-subscription',
        );
      }
      const codex = config.model.codex;
      const client = modelClientFor(settings, {
        store: new FileCredentialDocumentStore({ home: codex.home }),
        ownerKey: codex.ownerKey,
        endpoints: codex.endpoints,
        version: HELIX_VERSION,
      });
      if (options.json !== true) process.stderr.write(`asking ${client.provider} for its models…\n`);
      let models: readonly ModelInfo[];
      try {
        models = await client.listModels(AbortSignal.timeout(LIST_TIMEOUT_MS));
      } catch (err) {
        if (err instanceof ModelError) throw new CliError(`${client.provider}: ${err.message}`);
        throw err;
      }
      if (options.json === true) {
        process.stdout.write(`${JSON.stringify({ provider: client.provider, models }, null, 2)}\n`);
        return;
      }
      for (const model of models) process.stdout.write(`${describe(model)}\n`);
      process.stderr.write(`${models.length} model${models.length === 1 ? '' : 's'} from ${client.provider}\n`);
    });
