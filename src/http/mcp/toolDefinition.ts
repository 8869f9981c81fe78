import type { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import type { RunOperation } from '../../domain/scopes.js';
import type { ServiceResult } from '../../service/runs/deps.js';
import type { RunService } from '../../service/runs/runService.js';

/**
 * One MCP tool: its published contract (input and output schemas, scope) and the use case it calls.
 * Arguments are handed to the service unvalidated beyond their names, so REST and MCP apply the
 * very same validation, in the same order (scope, run_id, idempotency key, request).
 */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly operation: RunOperation;
  readonly mutation: boolean;
  /** The published inputSchema; its top-level keys are the only arguments admitted. */
  readonly input: z.ZodObject;
  /** The success output; the published outputSchema is this or the error body. */
  readonly output: z.ZodType;
  call(service: RunService, principal: Principal, args: Readonly<Record<string, unknown>>): Promise<ServiceResult>;
}
