import { Command } from 'commander';
import { accountPolicyDefaults } from '../config/accountPolicyConfig.js';
import { ConfigError } from '../config/env.js';
import {
  ACCOUNT_FEATURES,
  AccountPolicyError,
  parseDecision,
  parseFeatureName,
  type AccountFeature,
  type AccountPolicy,
  type AccountPolicyView,
  type CapabilityDecision,
  type PolicyChange,
} from '../domain/accountPolicy.js';
import { changeAccountPolicy } from '../service/accounts/changeAccountPolicy.js';
import { showAccountPolicy } from '../service/accounts/showAccountPolicy.js';
import { accountErrors } from './accountErrors.js';
import { addDatabaseOption, CliError, withDatabase } from './options.js';

const collect = (item: string, all: string[]): string[] => [...all, item];

/** `name=value` pairs; `default` as the value removes the explicit choice. */
const pairs = (items: readonly string[], option: string): [string, string][] =>
  items.map((item) => {
    const at = item.indexOf('=');
    if (at <= 0) throw new AccountPolicyError(`${option} takes NAME=VALUE, got ${item.slice(0, 80)}`);
    return [item.slice(0, at).trim(), item.slice(at + 1).trim()];
  });

const ON_OFF: Readonly<Record<string, boolean | null>> = { on: true, off: false, default: null };

export const policyChangeFrom = (options: {
  readonly feature: readonly string[];
  readonly capability: readonly string[];
  readonly defaultCapability?: string;
}): PolicyChange => {
  const features: Partial<Record<AccountFeature, boolean | null>> = {};
  for (const [name, value] of pairs(options.feature, '--feature')) {
    const setting = ON_OFF[value];
    if (setting === undefined) throw new AccountPolicyError(`--feature ${name} takes on, off or default`);
    features[parseFeatureName(name)] = setting;
  }
  const capabilities: Record<string, CapabilityDecision | null> = {};
  for (const [id, value] of pairs(options.capability, '--capability'))
    capabilities[id] = value === 'default' ? null : parseDecision(value);
  const defaultCapability =
    options.defaultCapability === undefined
      ? undefined
      : options.defaultCapability === 'default'
        ? null
        : parseDecision(options.defaultCapability);
  return { features, capabilities, ...(defaultCapability === undefined ? {} : { defaultCapability }) };
};

const render = (view: AccountPolicyView): string => {
  const { effective, overrides } = view;
  const mark = (set: boolean) => (set ? 'set' : 'default');
  const lines = [`account ${view.accountId}`];
  for (const feature of ACCOUNT_FEATURES) {
    lines.push(
      `feature ${feature}\t${effective.features[feature] ? 'on' : 'off'}\t(${mark(feature in overrides.features)})`,
    );
  }
  lines.push(
    `capabilities by default\t${effective.defaultCapability}\t(${mark(overrides.defaultCapability !== undefined)})`,
  );
  for (const [id, decision] of Object.entries(effective.capabilities).sort())
    lines.push(`capability ${id}\t${decision}\t(${mark(id in overrides.capabilities)})`);
  return `${lines.join('\n')}\n`;
};

/** The deployment default the account's own choices apply over (HELIX_ACCOUNT_DEFAULT_*). */
const deploymentDefaults = (): AccountPolicy => {
  try {
    return accountPolicyDefaults(process.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 2);
    throw err;
  }
};

/** `helix accounts policy show|set`: what an account may use beyond its token's scopes. */
export const accountPolicyCommand = (): Command => {
  const policy = new Command('policy').description(
    "an account's policy: features and capability decisions (the rest follows the deployment default)",
  );

  addDatabaseOption(
    policy
      .command('show')
      .description("print an account's effective policy and which entries were set by hand")
      .requiredOption('--account <id>', 'account id'),
  ).action(async (options: { account: string; database?: string }) => {
    await withDatabase(options, (database) =>
      accountErrors(async () => {
        const view = await showAccountPolicy(database.accounts, deploymentDefaults(), options.account);
        process.stdout.write(render(view));
      }),
    );
  });

  addDatabaseOption(
    policy
      .command('set')
      .description('change an account policy; applies from the next request or turn')
      .requiredOption('--account <id>', 'account id')
      .option(
        '--feature <name=on|off|default>',
        `turn a feature on or off (${ACCOUNT_FEATURES.join(', ')}); repeatable`,
        collect,
        [],
      )
      .option('--capability <id=admit|deny|default>', 'admit or deny one capability id; repeatable', collect, [])
      .option('--default-capability <admit|deny|default>', 'the decision for capabilities without an entry'),
  ).action(
    async (options: {
      account: string;
      feature: string[];
      capability: string[];
      defaultCapability?: string;
      database?: string;
    }) => {
      let change: PolicyChange;
      try {
        change = policyChangeFrom(options);
      } catch (err) {
        if (err instanceof AccountPolicyError) throw new CliError(err.message, 2);
        throw err;
      }
      if (options.feature.length + options.capability.length === 0 && options.defaultCapability === undefined) {
        throw new CliError('nothing to change: give --feature, --capability or --default-capability', 2);
      }
      await withDatabase(options, (database) =>
        accountErrors(async () => {
          try {
            const view = await changeAccountPolicy(database.accounts, deploymentDefaults(), options.account, change);
            process.stdout.write(render(view));
          } catch (err) {
            if (err instanceof AccountPolicyError) throw new CliError(err.message, 2);
            throw err;
          }
        }),
      );
    },
  );
  return policy;
};
