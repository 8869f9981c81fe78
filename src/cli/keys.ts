import { Command } from 'commander';
import { ApiKeyInputError } from '../auth/apiKeys.js';
import { issueApiKey } from '../service/accounts/issueApiKey.js';
import { listApiKeys } from '../service/accounts/listApiKeys.js';
import { revokeApiKey } from '../service/accounts/revokeApiKey.js';
import { addDatabaseOption, CliError, withDatabase } from './options.js';

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

export const keysCommand = (): Command => {
  const keys = new Command('keys').description('manage hlx_ scoped API keys (ADR-0004)');

  addDatabaseOption(
    keys
      .command('create')
      .description('create a key; the key itself is printed once, alone on the last line of stdout')
      .requiredOption('--tenant <tenant>', 'tenant the key is bound to')
      .requiredOption('--account <account>', 'account the key is bound to')
      .requiredOption(
        '--scopes <scopes>',
        'space-separated scopes, e.g. "helix.agent_runs.read helix.agent_runs.write"',
      )
      .option('--label <label>', 'a note to recognise the key by'),
  ).action(async (options: { tenant: string; account: string; scopes: string; label?: string; database?: string }) => {
    await withDatabase(options, async (database) => {
      try {
        const scopes = options.scopes.split(/[\s,]+/).filter((s) => s !== '');
        const { key, record, helixAccount } = await issueApiKey(database.accounts, {
          tenantId: options.tenant,
          accountId: options.account,
          scopes,
          ...(options.label === undefined ? {} : { label: options.label }),
        });
        process.stdout.write(`created ${record.keyId} for tenant ${record.tenantId}, account ${record.accountId}\n`);
        process.stdout.write(`scopes: ${record.scopes.join(' ')}\n`);
        if (!helixAccount) {
          process.stderr.write(
            `note: ${record.accountId} is not a Helix account, so this key works only outside production (see helix accounts create)\n`,
          );
        }
        process.stdout.write('store this key now: it is shown once and only its hash is kept\n');
        process.stdout.write(`${key}\n`);
      } catch (err) {
        if (err instanceof ApiKeyInputError) throw new CliError(err.message, 2);
        throw err;
      }
    });
  });

  addDatabaseOption(keys.command('list').description('list keys (never the keys themselves)')).action(
    async (options: { database?: string }) => {
      await withDatabase(options, async (database) => {
        const rows = await listApiKeys(database.accounts);
        if (rows.length === 0) {
          process.stdout.write('no keys\n');
          return;
        }
        for (const k of rows) {
          const status = k.revokedAt === null ? 'active' : `revoked ${iso(k.revokedAt)}`;
          process.stdout.write(
            `${k.keyId}\t${k.displayPrefix}\t${k.tenantId}\t${k.accountId}\t${status}\tcreated ${iso(k.createdAt)}\t${k.scopes.join(' ')}${k.label === null ? '' : `\t${k.label}`}\n`,
          );
        }
      });
    },
  );

  addDatabaseOption(
    keys.command('revoke').description('revoke a key by its id (key_…); idempotent').argument('<key-id>'),
  ).action(async (keyId: string, options: { database?: string }) => {
    await withDatabase(options, async (database) => {
      if (!(await revokeApiKey(database.accounts, keyId))) throw new CliError(`no key with id ${keyId.slice(0, 80)}`);
      process.stdout.write(`revoked ${keyId}\n`);
    });
  });
  return keys;
};
