import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Span } from '@opentelemetry/api';
import { jsonSchemaOf, type JsonObject } from '../../api/jsonSchema.js';
import { ErrorBodySchema } from '../../api/outputSchemas.js';
import type { Principal } from '../../auth/principal.js';
import { HelixError, isHelixError } from '../../domain/errors.js';
import { OPERATION_SCOPES } from '../../domain/scopes.js';
import { ATTR, inSpan, recordErrorResponse } from '../../telemetry/instruments.js';
import type { ToolDefinition, ToolServices } from './toolDefinition.js';
import { errorResult, successResult } from './toolResult.js';

/** MCP requires `type: "object"` at the root of an outputSchema; failures share it with success. */
const outputSchemaOf = (tool: ToolDefinition): Tool['outputSchema'] => ({
  type: 'object',
  anyOf: [
    ...(tool.output === undefined ? [] : [jsonSchemaOf(tool.output, 'output')]),
    jsonSchemaOf(ErrorBodySchema, 'output'),
  ],
});

/** A tool without arguments publishes `{type: "object", additionalProperties: false}`: an empty `properties` map reads as a forgotten schema. */
const inputSchemaOf = (tool: ToolDefinition): Tool['inputSchema'] => {
  const { properties, ...rest } = jsonSchemaOf(tool.input, 'input');
  const empty = typeof properties === 'object' && properties !== null && Object.keys(properties).length === 0;
  return (empty ? rest : { ...rest, properties }) as Tool['inputSchema'];
};

/**
 * Operations whose request names logical data scopes (`database_scope`): admission check 2 then
 * requires each named scope's OAuth data scope too, at start and before every continuation.
 */
const DATA_SCOPED_OPERATIONS: ReadonlySet<string> = new Set(['run.start', 'run.continue']);

/**
 * MCP-02, PRE-05: the complete scope set, every scope the handler may require: the operation's own
 * scopes, and for a run start or continue the data scopes a request may name (issue 14 item 3).
 * `dataScopes` are those of the logical scopes this deployment's sources back (dataOAuthScopesOf):
 * admission refuses any other scope (`scope_unavailable`) before it would ask for its OAuth scope.
 */
export const scopesOfTool = (tool: Pick<ToolDefinition, 'operation'>, dataScopes: readonly string[]): string[] => [
  ...OPERATION_SCOPES[tool.operation].oauth,
  ...(DATA_SCOPED_OPERATIONS.has(tool.operation) ? dataScopes : []),
];

const describeTool = (tool: ToolDefinition, dataScopes: readonly string[]): Tool => {
  const securitySchemes = [{ type: 'oauth2', scopes: scopesOfTool(tool, dataScopes) }];
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchemaOf(tool),
    outputSchema: outputSchemaOf(tool),
    annotations: {
      title: tool.title,
      readOnlyHint: !tool.mutation,
      destructiveHint: tool.destructive === true,
      idempotentHint: true,
      openWorldHint: false,
    },
    // The complete scope set, in the standard field and the compatibility `_meta` field.
    securitySchemes,
    _meta: { securitySchemes },
  } as Tool;
};

/**
 * The tool table, built once per process: JSON Schemas are derived from the zod contract at start-up,
 * so a request only looks tools up. `tools/list` always returns the complete catalog; permission
 * is enforced per call by the service, never by hiding tools.
 */
/** The JSON types each argument's published schema admits (`anyOf` unions included). */
const argumentTypes = (inputSchema: Tool['inputSchema']): ReadonlyMap<string, ReadonlySet<string>> => {
  const typesOf = (schema: { type?: unknown; anyOf?: unknown[] }): string[] => [
    ...(typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : []),
    ...(schema.anyOf ?? []).flatMap((s) => typesOf(s as { type?: unknown; anyOf?: unknown[] })),
  ];
  const properties = (inputSchema.properties ?? {}) as Record<string, { type?: unknown; anyOf?: unknown[] }>;
  return new Map(Object.entries(properties).map(([name, schema]) => [name, new Set(typesOf(schema))]));
};

const jsonTypeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value;

/**
 * Each argument must have a JSON type its published inputSchema admits (a `run_id` given as an
 * array is refused, not turned into a string). What a well-typed value means (a run id's
 * pattern, a key's length, the whole `request`) is checked by the use case, exactly as over REST.
 */
const assertArgumentTypes = (types: ReadonlyMap<string, ReadonlySet<string>> | undefined, given: JsonObject): void => {
  const issues: { path: string; message: string }[] = [];
  for (const [name, value] of Object.entries(given)) {
    const admitted = types?.get(name);
    if (admitted === undefined || admitted.size === 0) continue;
    const type = jsonTypeOf(value);
    if (!admitted.has(type) && !(type === 'integer' && admitted.has('number')))
      issues.push({ path: name, message: `must be ${[...admitted].join(' or ')}` });
  }
  if (issues.length > 0) throw new HelixError('invalid_request', { issues });
};

/** What a tool call needs from its HTTP request. */
export interface ToolCallContext {
  readonly resourceMetadataUrl: string;
  /** Logs an unexpected failure server-side (request id included); never shown to the caller. */
  readonly logUnexpected: (err: unknown) => void;
}

export class ToolCatalog {
  readonly tools: readonly Tool[];
  private readonly byName: ReadonlyMap<string, ToolDefinition>;
  private readonly argumentTypes: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>;

  /** `dataScopes`: the OAuth data scopes a run start or continue may require here (scopesOfTool). */
  constructor(definitions: readonly ToolDefinition[], dataScopes: readonly string[]) {
    this.tools = definitions.map((d) => describeTool(d, dataScopes));
    this.argumentTypes = new Map(this.tools.map((t) => [t.name, argumentTypes(t.inputSchema)]));
    this.byName = new Map(definitions.map((d) => [d.name, d]));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  call(
    services: ToolServices,
    principal: Principal,
    name: string,
    args: unknown,
    context: ToolCallContext,
  ): Promise<CallToolResult> {
    const tool = this.byName.get(name);
    // The span names a tool only when it exists: an unknown name is whatever the caller sent.
    const attributes = {
      [ATTR.mcpMethod]: 'tools/call',
      ...(tool === undefined ? {} : { [ATTR.toolName]: tool.name }),
    };
    return inSpan(`tools/call ${tool?.name ?? '(unknown)'}`, attributes, (span) =>
      this.dispatch(tool, services, principal, args, context, span),
    );
  }

  private async dispatch(
    tool: ToolDefinition | undefined,
    services: ToolServices,
    principal: Principal,
    args: unknown,
    context: ToolCallContext,
    span: Span,
  ): Promise<CallToolResult> {
    try {
      if (tool === undefined) throw new HelixError('tool_not_found');
      const given = (args ?? {}) as JsonObject;
      if (typeof given !== 'object' || Array.isArray(given)) throw new HelixError('invalid_request');
      // Own keys only: `toString` or `__proto__` are not arguments just because objects inherit them.
      const unknown = Object.keys(given).filter((k) => !Object.hasOwn(tool.input.shape, k));
      if (unknown.length > 0) {
        throw new HelixError('invalid_request', {
          issues: unknown.slice(0, 10).map(() => ({ path: '(arguments)', message: 'unknown argument' })),
        });
      }
      assertArgumentTypes(this.argumentTypes.get(tool.name), given);
      const result = await tool.call(services, principal, given);
      return successResult(result.body, tool.mutation ? result.replayed : undefined);
    } catch (err) {
      recordErrorResponse(isHelixError(err) ? err.code : 'internal_error', 'mcp', span);
      if (isHelixError(err)) return errorResult(err, context.resourceMetadataUrl);
      // Anything else is ours, not the caller's: its text (a driver's message, a stack) stays in the
      // log with the request id, and the caller gets the same static internal_error as over REST.
      context.logUnexpected(err);
      return errorResult(new HelixError('internal_error'), context.resourceMetadataUrl);
    }
  }
}
