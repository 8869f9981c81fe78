import { buildOpenApiDocument } from './document.js';

/** Where the committed copy of the document lives, relative to the repository root. */
export const OPENAPI_FILE = 'docs/openapi.json';

/** The committed file's exact text: two-space JSON and a final newline. */
export const renderOpenApiDocument = (): string => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
