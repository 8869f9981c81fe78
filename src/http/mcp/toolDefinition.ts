import type { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import { HelixError } from '../../domain/errors.js';
import type { AgentTaskOperation, RoomOperation, RunOperation } from '../../domain/scopes.js';
import type { RoomDeps } from '../../service/rooms/deps.js';
import type { ServiceResult } from '../../service/result.js';
import type { RunService } from '../../service/runs/runService.js';

/** The use cases a tool may call: the run service always, the room facade when the server has one. */
export interface ToolServices {
  readonly runs: RunService;
  readonly rooms: RoomDeps | undefined;
}

/**
 * One MCP tool: its published contract (input and output schemas, scope) and the use case it calls.
 * Arguments are handed to the service unvalidated beyond their names, so REST and MCP apply the
 * very same validation, in the same order (scope, run_id, idempotency key, request).
 */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly operation: RunOperation | RoomOperation | AgentTaskOperation;
  readonly mutation: boolean;
  /** Withdraws or closes something for good: published as `destructiveHint`. */
  readonly destructive?: true;
  /** The published inputSchema; its top-level keys are the only arguments admitted. */
  readonly input: z.ZodObject;
  /**
   * The success output; the published outputSchema is this or the error body. Absent for a tool
   * that never succeeds (the disabled room command, MRT-10): its outputSchema is the error body.
   */
  readonly output?: z.ZodType;
  call(services: ToolServices, principal: Principal, args: Readonly<Record<string, unknown>>): Promise<ServiceResult>;
}

/** Room tools are in a catalog only when the server has the room facade (src/http/app.ts). */
export const roomsOf = (services: ToolServices): RoomDeps => {
  if (services.rooms === undefined) throw new HelixError('tool_not_found');
  return services.rooms;
};
