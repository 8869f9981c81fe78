import { Command } from 'commander';
import { ApiKeyInputError, createApiKey } from '../auth/apiKeys.js';
import { addDatabaseOption, CliError, withStore } from './options.js';

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
    await withStore(options, async (store) => {
      try {
        const scopes = options.scopes.split(/[\s,]+/).filter((s) => s !== '');
        const { key, record } = await createApiKey(
          store,
          {
            tenantId: options.tenant,
            accountId: options.account,
            scopes,
            ...(options.label === undefined ? {} : { label: options.label }),
          },
          Date.now(),
        );
        process.stdout.write(`created ${record.keyId} for tenant ${record.tenantId}, account ${record.accountId}\n`);
        process.stdout.write(`scopes: ${record.scopes.join(' ')}\n`);
        if ((await store.read.accounts.get(record.accountId)) === undefined) {
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
      await withStore(options, async (store) => {
        const rows = await store.read.apiKeys.list();
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
    await withStore(options, async (store) => {
      if (!(await store.read.apiKeys.revoke(keyId, Date.now())))
        throw new CliError(`no key with id ${keyId.slice(0, 80)}`);
      process.stdout.write(`revoked ${keyId}\n`);
    });
  });
  return keys;
};
