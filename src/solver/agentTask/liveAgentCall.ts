import { randomBytes } from 'node:crypto';
import {
  AGENT_TASK_ABANDONED,
  AGENT_TASK_PROVIDER,
  MAX_AGENT_RECEIPTS,
  MAX_ASSET_READ_BYTES,
  OWNER_TOKEN_PREFIX,
} from '../../domain/agentTask.js';
import { HelixError } from '../../domain/errors.js';
import { canonicalJson, sha256Hex } from '../../domain/hashing.js';
import { emptyOutcome, type TurnArtifact, type TurnOutcome } from '../../domain/turn.js';
import type { TurnInput } from '../executor.js';
import { outcomeFromResult, type SubmittedResult } from '../model/resultTool.js';
import { digestError, digestResult } from '../model/toolDigest.js';
import { buildAgentTask, type AgentTask, type BuiltTask } from './taskSpec.js';

/** What one declared tool call returned, retained for retries of its toolCallId (ATP-20). */
export interface AgentToolReceipt {
  readonly receiptNumber: number;
  readonly toolCallId: string;
  readonly name: string;
  readonly outcome: 'ok' | 'error';
  /** The digest a model would see: refs, titles, locators, bounded passages; or a stable error code. */
  readonly result: unknown;
}

export interface AssetChunk {
  readonly assetId: string;
  readonly mediaType: string;
  readonly offset: number;
  readonly nextOffset: number;
  readonly totalBytes: number;
  readonly eof: boolean;
  readonly text: string;
}

interface Retained {
  readonly name: string;
  readonly inputHash: string;
  readonly receipt: AgentToolReceipt;
}

const hashToken = (token: string): string => sha256Hex(token);

/**
 * One turn's pending agent call, live in the process that runs the turn and nowhere else: its
 * claim, the receipts of its tool calls and the artifacts they retrieved. Nothing here is durable:
 * after a restart the call is gone and the turn is RUN_INTERRUPTED (ATP-37). The owner token
 * exists only in the claim's answer; the call keeps its hash.
 */
export class LiveAgentCall {
  readonly runId: string;
  readonly ownerHash: string;
  readonly turn: number;
  readonly task: AgentTask;
  private readonly built: BuiltTask;
  private claim: { readonly claimId: string; tokenHash: string } | undefined;
  private readonly receipts = new Map<string, Retained>();
  private readonly artifacts = new Map<string, TurnArtifact>();
  private inFlight = false;
  private settled = false;

  constructor(
    readonly callId: string,
    private readonly input: TurnInput,
    private readonly settle: (outcome: TurnOutcome) => void,
  ) {
    this.runId = input.runId;
    this.ownerHash = input.ownerHash;
    this.turn = input.turn;
    this.built = buildAgentTask(input);
    this.task = this.built.task;
  }

  get claimed(): boolean {
    return this.claim !== undefined;
  }

  get deadline(): number {
    return this.input.deadline;
  }

  /**
   * ATP-17: the first claimant takes the call; the same claimId recovers it (with a fresh owner
   * token, since only the old one's hash was kept); any other claimId conflicts.
   */
  claimAs(claimId: string): { ownerToken: string; recovered: boolean } {
    if (this.settled) throw new HelixError('agent_call_not_found');
    if (this.claim !== undefined && this.claim.claimId !== claimId) throw new HelixError('agent_call_claimed');
    const ownerToken = `${OWNER_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const recovered = this.claim !== undefined;
    this.claim = { claimId, tokenHash: hashToken(ownerToken) };
    return { ownerToken, recovered };
  }

  /** Whether the token is the current claim's; a released call, or a stale or forged token, owns nothing. */
  isOwnedBy(ownerToken: string): boolean {
    return this.claim !== undefined && !this.settled && this.claim.tokenHash === hashToken(ownerToken);
  }

  /**
   * Every act of the owner checks its token at the instant it acts, not only when its request
   * arrived: a request that waited (for the store, ATP-31) must not act on a call another request
   * with the same token has since completed, released or abandoned.
   */
  private assertOwnedBy(ownerToken: string): void {
    if (!this.isOwnedBy(ownerToken)) throw new HelixError('agent_call_not_found');
  }

  /**
   * ATP-19..ATP-21: one call at a time; a retried toolCallId with the same name and input returns
   * its retained receipt, a changed one conflicts; at most 256 receipts. A name outside the
   * declared tools is `tool_not_found` and spends nothing.
   */
  async callTool(
    ownerToken: string,
    toolCallId: string,
    name: string,
    input: unknown,
  ): Promise<{ receipt: AgentToolReceipt; replayed: boolean }> {
    this.assertOwnedBy(ownerToken);
    const inputHash = sha256Hex(canonicalJson(input ?? null));
    const retained = this.receipts.get(toolCallId);
    if (retained !== undefined) {
      if (retained.name !== name || retained.inputHash !== inputHash) throw new HelixError('agent_tool_call_conflict');
      return { receipt: retained.receipt, replayed: true };
    }
    if (this.inFlight) throw new HelixError('agent_tool_call_conflict');
    const capabilityId = this.built.table.capabilityFor(name);
    if (capabilityId === undefined) throw new HelixError('tool_not_found');
    if (this.receipts.size >= MAX_AGENT_RECEIPTS) throw new HelixError('agent_receipt_limit_reached');
    this.inFlight = true;
    try {
      const receipt = await this.invoke(capabilityId, toolCallId, name, input);
      this.receipts.set(toolCallId, { name, inputHash, receipt });
      return { receipt, replayed: false };
    } finally {
      this.inFlight = false;
    }
  }

  private async invoke(
    capabilityId: string,
    toolCallId: string,
    name: string,
    input: unknown,
  ): Promise<AgentToolReceipt> {
    const base = { receiptNumber: this.receipts.size + 1, toolCallId, name };
    try {
      // invoke re-checks admission, honours the turn's signal and records the artifacts durably.
      const result = await this.input.capabilities.invoke(capabilityId, input ?? {});
      for (const a of result.artifacts) if (!this.artifacts.has(a.ref)) this.artifacts.set(a.ref, a);
      return { ...base, outcome: 'ok', result: JSON.parse(digestResult(result)) };
    } catch (err) {
      if (this.input.signal.aborted) throw new HelixError('agent_call_not_found');
      return { ...base, outcome: 'error', result: JSON.parse(digestError(err)) };
    }
  }

  /** ATP-23: a declared asset, by id, at most 1 MiB per read, cut back to a whole UTF-8 character. */
  readAsset(assetId: string, offset: number, maxBytes: number): AssetChunk {
    const body = this.built.assets.get(assetId);
    const declared = this.task.assets.find((a) => a.id === assetId);
    if (body === undefined || declared === undefined) throw new HelixError('agent_asset_not_found');
    const start = Math.min(offset, body.length);
    let end = Math.min(body.length, start + Math.min(maxBytes, MAX_ASSET_READ_BYTES));
    // A continuation byte (10xxxxxx) starts no character: end the chunk before it.
    while (end < body.length && end > start && ((body[end] ?? 0) & 0xc0) === 0x80) end -= 1;
    return {
      assetId,
      mediaType: declared.mediaType,
      offset: start,
      nextOffset: end,
      totalBytes: body.length,
      eof: end >= body.length,
      text: body.subarray(start, end).toString('utf8'),
    };
  }

  /**
   * ATP-22, ATP-24: the validated final JSON becomes the turn's outcome, with exactly the
   * artifacts this task's tool calls retrieved; terminal authority judges what it cites.
   */
  complete(ownerToken: string, result: SubmittedResult): void {
    this.assertOwnedBy(ownerToken);
    if (this.inFlight) throw new HelixError('agent_tool_call_conflict');
    this.finish(outcomeFromResult(result, [...this.artifacts.values()], AGENT_TASK_PROVIDER));
  }

  /** Gives the claim up; the call stays pending for another claim. */
  release(ownerToken: string): void {
    this.assertOwnedBy(ownerToken);
    this.claim = undefined;
  }

  /** Gives the task up: the turn fails (not permanently), and no other executor takes over (ATP-38). */
  abandon(ownerToken: string): void {
    this.assertOwnedBy(ownerToken);
    this.finish(emptyOutcome({ status: 'failed', failureCode: AGENT_TASK_ABANDONED }));
  }

  private finish(outcome: TurnOutcome): void {
    this.settled = true;
    this.settle(outcome);
  }
}
