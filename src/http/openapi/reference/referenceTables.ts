import type { z } from 'zod';
import { ErrorBodySchema, EventPageSchema, EvidenceBundleSchema, RunViewSchema } from '../../../api/outputSchemas.js';
import {
  CancelRunRequestSchema,
  ContinueRunRequestSchema,
  ListEventsQuerySchema,
  StartRunRequestSchema,
} from '../../../api/schemas.js';
import { ModelProviderViewSchema, RegisterModelProviderSchema } from '../../../providers/providerSchemas.js';
import { ADR_ERROR_NUMBERS, ERROR_CODES, ERROR_TABLE } from '../../../domain/errors.js';
import { OPERATION_SCOPES } from '../../../domain/scopes.js';
import type { OperationDoc } from '../operations.js';
import { documentedRoutes } from '../routeCatalog.js';
import { fieldRows } from './fieldRows.js';

const table = (header: readonly string[], rows: readonly (readonly string[])[]): string =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

const code = (text: string): string => `\`${text}\``;
const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

/** A request body or query: what a caller may send, with the bounds and defaults the server applies. */
const requestTable = (schema: z.ZodType, io: 'input' | 'output'): string =>
  table(
    ['Field', 'Type', 'Required', 'Limits', 'Default'],
    fieldRows(schema, io).map((f) => [code(f.path), f.type, yesNo(f.required), f.limits, f.defaultValue]),
  );

/** A response: every field the server sends (`optional` ones only in some answers). */
const outputTable = (schema: z.ZodType): string =>
  table(
    ['Field', 'Type', 'Always present', 'Values'],
    fieldRows(schema, 'output').map((f) => [code(f.path), f.type, yesNo(f.required), f.limits]),
  );

/** A bearer operation's scopes: the OAuth scopes, or the `hlx_` key scope where OAuth grants none. */
const bearerScopes = (doc: OperationDoc): string => {
  if (doc.scope === undefined) return 'bearer';
  const grant = OPERATION_SCOPES[doc.scope];
  return grant.oauth === null
    ? `${code(grant.adr[0])} (an \`hlx_\` key only)`
    : grant.oauth.map((scope) => code(scope)).join(' and ');
};

const credentialOf = (doc: OperationDoc): string => {
  switch (doc.authentication) {
    case 'none':
      return 'none';
    case 'session':
      return 'browser session';
    case 'source_bearer':
      return 'the binding’s source bearer';
    case 'action_credential':
      return 'the binding’s action credential';
    case 'bearer':
      return bearerScopes(doc);
  }
};

/** The route table: every documented route, from the tables the server registers them with. */
const routeTable = (): string =>
  table(
    ['Method', 'Path', 'Credential and scope', 'Purpose', 'Success'],
    documentedRoutes().map((route) => [
      code(route.method),
      code(route.url.replace(/:([a-z_]+)/g, '{$1}')),
      credentialOf(route.doc),
      route.doc.summary,
      route.doc.success === undefined ? 'never (an error)' : code(String(route.doc.success.status)),
    ]),
  );

/** The error vocabulary of src/domain/errors.ts: status, ADR-0004 number and the fixed message. */
const errorTable = (): string =>
  table(
    ['Code', 'HTTP', 'ADR-0004', 'Message'],
    ERROR_CODES.map((c) => {
      const spec = ERROR_TABLE[c];
      const adr = spec.adr === undefined ? '' : `${ADR_ERROR_NUMBERS[spec.adr]} ${code(spec.adr)}`;
      return [code(c), String(spec.status), adr, spec.message];
    }),
  );

/** Every generated block of docs/api.md, by the name its markers carry. */
export const REFERENCE_TABLES: Readonly<Record<string, () => string>> = {
  routes: routeTable,
  'request:start-run': () => requestTable(StartRunRequestSchema, 'input'),
  'request:continue-run': () => requestTable(ContinueRunRequestSchema, 'input'),
  'request:cancel-run': () => requestTable(CancelRunRequestSchema, 'input'),
  // The query is published as the integers it parses to (what any client serialises).
  'query:list-events': () => requestTable(ListEventsQuerySchema, 'output'),
  'request:register-model-provider': () => requestTable(RegisterModelProviderSchema, 'input'),
  'output:run': () => outputTable(RunViewSchema),
  'output:event-page': () => outputTable(EventPageSchema),
  'output:evidence-bundle': () => outputTable(EvidenceBundleSchema),
  'output:model-provider': () => outputTable(ModelProviderViewSchema),
  'output:error-body': () => outputTable(ErrorBodySchema),
  errors: errorTable,
};
