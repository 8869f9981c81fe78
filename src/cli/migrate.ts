import { Command } from 'commander';
import { addDatabaseOption, withDatabase } from './options.js';

export const migrateCommand = (): Command =>
  addDatabaseOption(
    new Command('migrate').description('apply pending database migrations (start-up does this too)'),
  ).action(async (options: { database?: string }) => {
    await withDatabase(options, async (database) => {
      process.stdout.write(`${database.description} (${database.dialect}) is at migration ${database.migration}\n`);
    });
  });
