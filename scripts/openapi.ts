/**
 * Writes the generated contract files (`npm run openapi`): docs/openapi.json, and the generated
 * tables of docs/api.md (between its `<!-- generated:NAME -->` markers; the prose around them is
 * kept). The drift tests (src/http/openapi/openapi.test.ts, reference/apiReference.test.ts) fail
 * while a committed file differs from this output.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_REFERENCE_FILE, renderApiReference } from '../src/http/openapi/reference/apiReference.js';
import { OPENAPI_FILE, renderOpenApiDocument } from '../src/http/openapi/render.js';

const inRepo = (file: string): string => fileURLToPath(new URL(`../${file}`, import.meta.url));

writeFileSync(inRepo(OPENAPI_FILE), renderOpenApiDocument());
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
writeFileSync(inRepo(API_REFERENCE_FILE), renderApiReference(readFileSync(inRepo(API_REFERENCE_FILE), 'utf8')));
process.stdout.write(`wrote the generated tables of ${API_REFERENCE_FILE}\n`);
