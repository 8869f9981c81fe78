#!/usr/bin/env node
// The `helix` command. `npm install` builds dist/ (the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('helix: dist/ is missing; run `npm install` (or `npm run build`) first\n');
  process.exit(1);
}
await import(entry.href);
