import type { Migration, MigrationProvider } from 'kysely';
import { initial } from './0001_initial.js';

/** Every migration, in order. Names are permanent: never rename or edit one that has shipped. */
const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};

export const MIGRATION_NAMES = Object.keys(MIGRATIONS);
