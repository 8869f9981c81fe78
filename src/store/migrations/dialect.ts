/** The SQL dialects the store runs on; a migration may differ by dialect (full-text search). */
export type StoreDialect = 'sqlite' | 'postgres';
