import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { IN_PROCESS_CEILING_MS } from './test/support/ceilings.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'connectors/*/src/**/*.test.ts'],
    // Ceilings for in-process work; a test that waits for child processes states its own with
    // ceilingFor(n) (test/support/ceilings.ts).
    testTimeout: IN_PROCESS_CEILING_MS,
    hookTimeout: IN_PROCESS_CEILING_MS,
    pool: 'forks',
    // Half the cores run test files; the rest are for what they start (helix serve and CLI
    // children, PGlite, Chromium), which would otherwise compete with the workers for the same cores.
    maxWorkers: Math.max(1, Math.floor(availableParallelism() / 2)),
  },
});
