import { Command } from 'commander';
import { describeLocation } from '../store/openStore.js';
import { MIGRATION_NAMES } from '../store/migrations/index.js';
import { addDatabaseOption, withStore } from './options.js';

export const migrateCommand = (): Command =>
  addDatabaseOption(
    new Command('migrate').description('apply pending database migrations (start-up does this too)'),
  ).action(async (options: { database?: string }) => {
    await withStore(options, async (store, location) => {
      process.stdout.write(
        `${describeLocation(location)} (${store.dialect}) is at migration ${MIGRATION_NAMES.at(-1)}\n`,
      );
    });
  });
