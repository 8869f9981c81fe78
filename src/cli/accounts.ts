import { Command } from 'commander';
import { createAccount } from '../service/accounts/createAccount.js';
import { issueSignInLink } from '../service/accounts/issueSignInLink.js';
import { linkIdentity } from '../service/accounts/linkIdentity.js';
import { listAccounts } from '../service/accounts/listAccounts.js';
import { setAccountPassword } from '../service/accounts/setAccountPassword.js';
import { setAccountStatus } from '../service/accounts/setAccountStatus.js';
import { accountErrors } from './accountErrors.js';
import { accountPolicyCommand } from './accountPolicy.js';
import { addDatabaseOption, CliError, withDatabase } from './options.js';

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

/** Reads a password from stdin (never from an argument, which `ps` and shell history would show). */
const readPassword = async (): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
};

/** `accounts create`: a new account, its id alone on the last line. */
const addCreate = (accounts: Command): void => {
  addDatabaseOption(
    accounts
      .command('create')
      .description('create an account')
      .requiredOption('--name <name>', 'display name')
      .option('--password-stdin', 'read a sign-in password from stdin'),
  ).action(async (options: { name: string; passwordStdin?: boolean; database?: string }) => {
    const password = options.passwordStdin === true ? await readPassword() : undefined;
    await withDatabase(options, (database) =>
      accountErrors(async () => {
        const account = await createAccount(database.accounts, {
          displayName: options.name,
          ...(password === undefined ? {} : { password }),
        });
        process.stdout.write(`created ${account.accountId} (${account.displayName})\n${account.accountId}\n`);
      }),
    );
  });
};

/** `accounts list`: one line per account (never subjects or tenants). */
const addList = (accounts: Command): void => {
  addDatabaseOption(
    accounts.command('list').description('list accounts and their bindings (never subjects or tenants)'),
  ).action(async (options: { database?: string }) => {
    await withDatabase(options, async (database) => {
      const all = await listAccounts(database.accounts);
      if (all.length === 0) process.stdout.write('no accounts\n');
      for (const { account: a, activeBindings: active } of all) {
        process.stdout.write(
          `${a.accountId}\t${a.status}\t${a.displayName}\t${active} active binding(s)\tpassword ${a.passwordHash === null ? 'off' : 'on'}\tcreated ${iso(a.createdAt)}\n`,
        );
      }
    });
  });
};

/** `accounts set-password`: the sign-in password, read from stdin. */
const addSetPassword = (accounts: Command): void => {
  addDatabaseOption(
    accounts
      .command('set-password')
      .description('set (or with an empty stdin, clear) the sign-in password; reads stdin')
      .requiredOption('--account <id>', 'account id'),
  ).action(async (options: { account: string; database?: string }) => {
    const password = await readPassword();
    await withDatabase(options, (database) =>
      accountErrors(async () => {
        const outcome = await setAccountPassword(database.accounts, options.account, password);
        process.stdout.write(outcome === 'cleared' ? 'password sign-in turned off\n' : 'password set\n');
      }),
    );
  });
};

/** `accounts link`: the trusted link path for a verified provider identity. */
const addLink = (accounts: Command): void => {
  addDatabaseOption(
    accounts
      .command('link')
      .description(
        'link a verified provider identity to an account and create its agent binding (the trusted link path)',
      )
      .requiredOption('--account <id>', 'account id')
      .requiredOption('--issuer <iss>', 'the exact token issuer')
      .requiredOption('--tenant <tenant>', 'the signed tenant claim value')
      .requiredOption('--subject <sub>', 'the token subject')
      .option('--provider <alias>', 'provider alias (default: $HELIX_AGENT_OAUTH_PROVIDER)'),
  ).action(
    async (options: {
      account: string;
      issuer: string;
      tenant: string;
      subject: string;
      provider?: string;
      database?: string;
    }) => {
      const provider = options.provider ?? process.env.HELIX_AGENT_OAUTH_PROVIDER;
      if (provider === undefined || provider === '')
        throw new CliError('give --provider or set HELIX_AGENT_OAUTH_PROVIDER', 2);
      await withDatabase(options, (database) =>
        accountErrors(async () => {
          const binding = await linkIdentity(database.accounts, options.account, {
            issuer: options.issuer,
            tenantId: options.tenant,
            provider,
            subject: options.subject,
          });
          process.stdout.write(`linked: binding ${binding.bindingRef} (${binding.status}) for ${options.account}\n`);
        }),
      );
    },
  );
};

/** `accounts login-link`: a one-time browser sign-in link. */
const addLoginLink = (accounts: Command): void => {
  addDatabaseOption(
    accounts
      .command('login-link')
      .description('print a one-time browser sign-in link (valid 15 minutes)')
      .requiredOption('--account <id>', 'account id')
      .option(
        '--base-url <url>',
        'public base URL of this Helix',
        process.env.HELIX_PUBLIC_BASE_URL ?? 'http://127.0.0.1:1522',
      ),
  ).action(async (options: { account: string; baseUrl: string; database?: string }) => {
    await withDatabase(options, (database) =>
      accountErrors(async () => {
        const token = await issueSignInLink(database.accounts, options.account);
        process.stderr.write('open this link once in the browser you want to sign in; it expires in 15 minutes\n');
        process.stdout.write(`${options.baseUrl.replace(/\/$/, '')}/account/sign-in?code=${token}\n`);
      }),
    );
  });
};

/** `accounts disable` / `accounts enable`. */
const addStatusCommands = (accounts: Command): void => {
  for (const [verb, status, what] of [
    ['disable', 'disabled', 'its sessions and unused sign-in links end for good; its bindings and keys admit nothing'],
    ['enable', 'active', 'its bindings and keys admit again (ended sessions stay ended)'],
  ] as const) {
    addDatabaseOption(
      accounts.command(verb).description(`${verb} an account: ${what}`).requiredOption('--account <id>', 'account id'),
    ).action(async (options: { account: string; database?: string }) => {
      await withDatabase(options, (database) =>
        accountErrors(async () => {
          await setAccountStatus(database.accounts, options.account, status);
          process.stdout.write(`${verb}d ${options.account}\n`);
        }),
      );
    });
  }
};

export const accountsCommand = (): Command => {
  const accounts = new Command('accounts').description(
    'Helix accounts, their linked provider identities and agent bindings',
  );
  for (const add of [addCreate, addList, addSetPassword, addLink, addLoginLink, addStatusCommands]) add(accounts);
  accounts.addCommand(accountPolicyCommand());
  return accounts;
};
