import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { accountsCommand } from './accounts.js';
import { approvalsCommand } from './approvals.js';
import { askCommand } from './ask.js';
import { authCommand, loginCommand, logoutCommand } from './codexCommands.js';
import { keysCommand } from './keys.js';
import { libraryCommand } from './library.js';
import { mcpCommand } from './mcpConfig.js';
import { migrateCommand } from './migrate.js';
import { modelsCommand } from './models.js';
import { CliError } from './options.js';
import { roomsCommand } from './rooms.js';
import { serveCommand } from './serve.js';
import { subjectsCommand } from './subjects.js';
import { HELIX_VERSION } from '../version.js';

const program = new Command('helix')
  .description('Helix: durable, governed agent runs')
  .version(HELIX_VERSION)
  .showHelpAfterError()
  .exitOverride()
  .addCommand(serveCommand())
  .addCommand(keysCommand())
  .addCommand(migrateCommand())
  .addCommand(mcpCommand())
  .addCommand(libraryCommand())
  .addCommand(askCommand())
  .addCommand(accountsCommand())
  .addCommand(subjectsCommand())
  .addCommand(roomsCommand())
  .addCommand(approvalsCommand())
  .addCommand(loginCommand())
  .addCommand(logoutCommand())
  .addCommand(authCommand())
  .addCommand(modelsCommand());

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  if (err instanceof CliError) {
    process.stderr.write(`helix: ${err.message}\n`);
    process.exit(err.exitCode);
  }
  if (err instanceof ConfigError) {
    process.stderr.write(`helix: configuration error: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`helix: ${(err as Error).message}\n`);
  process.exit(1);
}
