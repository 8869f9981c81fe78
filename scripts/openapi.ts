/**
 * Writes docs/openapi.json from the zod contract (`npm run openapi`). The drift test
 * (src/http/openapi/openapi.test.ts) fails while the committed file differs from this output.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILE, renderOpenApiDocument } from '../src/http/openapi/render.js';

const target = fileURLToPath(new URL(`../${OPENAPI_FILE}`, import.meta.url));
writeFileSync(target, renderOpenApiDocument());
process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
