import { deriveAnswerContract } from '../../domain/answerContract/contract.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HelixError } from '../../domain/errors.js';
import {
  ModelError,
  ZERO_USAGE,
  type ModelClient,
  type ModelItem,
  type ModelRequest,
  type ModelResponse,
  type ModelSelection,
} from '../../model/port.js';
import type { Capability, CapabilityResult } from '../../sources/capability.js';
import type { TurnInput } from '../executor.js';
import { emptyOutcome, UsageMeter } from '../../domain/turn.js';
import { ScriptedExecutor, scriptedArtifact } from '../scriptedExecutor.js';
import { MODEL_DID_NOT_SUBMIT, ModelExecutor } from './modelExecutor.js';
import { SUBMIT_NOW } from './prompt.js';

type Reply = readonly ModelItem[] | ModelError | ((request: ModelRequest) => Promise<readonly ModelItem[]>);

/** A ModelClient that plays replies and records each request (a copy of its input). */
const scriptedModel = (replies: Reply[]) => {
  const requests: ModelRequest[] = [];
  const client: ModelClient = {
    provider: 'scripted',
    async *stream(request) {
      requests.push({ ...request, input: [...request.input] });
      const reply = replies.shift();
      if (reply === undefined) throw new Error('no reply left');
      if (reply instanceof ModelError) throw reply;
      const output = typeof reply === 'function' ? await reply(request) : reply;
      const response: ModelResponse = {
        id: null,
        output,
        usage: { ...ZERO_USAGE, inputTokens: 10, outputTokens: 2, totalTokens: 12 },
      };
      yield { type: 'completed', response };
    },
    listModels: async () => [],
  };
  return { client, requests, selection: { client, model: 'm' } satisfies ModelSelection };
};

const call = (
  name: string,
  args: unknown,
  callId = `c_${name}_${Math.random().toString(36).slice(2, 8)}`,
): ModelItem => ({
  type: 'function_call',
  callId,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

const passage = scriptedArtifact('Damping absorbs energy in a viscoelastic layer.', {
  capabilityId: 'research-library.search',
  family: 'research_library_evidence',
});

const searchCapability: Capability = {
  id: 'research-library.search',
  scope: 'research_library',
  family: 'research_library_evidence',
  kind: 'search',
  description: 'Search the library.',
  input: z.strictObject({ query: z.string().min(1), limit: z.number().int().default(8) }) as z.ZodType<unknown>,
  execute: async () => ({ artifacts: [], hits: [] }),
};

const turnInput = (
  overrides: Partial<TurnInput> & { invoke?: (id: string, input: unknown) => Promise<CapabilityResult> } = {},
) => {
  const invoked: { id: string; input: unknown }[] = [];
  const invoke =
    overrides.invoke ??
    (async (id: string): Promise<CapabilityResult> => {
      if (id !== 'research-library.search') throw new HelixError('tool_not_found');
      return {
        artifacts: [passage],
        hits: [
          {
            ref: passage.ref,
            title: 'Damping',
            text: 'Damping absorbs energy in a viscoelastic layer.',
            score: 1,
            documentId: 'doc_1',
          },
        ],
      };
    });
  const input: TurnInput = {
    runId: 'run_1',
    ownerHash: 'owner-hash',
    turn: 1,
    objective: 'How does damping work?',
    answerContract: deriveAnswerContract('How does damping work?'),
    constraints: ['Cite sources'],
    instruction: 'Answer briefly.',
    answers: [{ question_id: 'q_scope', value: 'panels only' }],
    databaseScope: ['research_library'],
    ownerModelProviders: true,
    admittedCapabilities: new Set(['research-library.search']),
    capabilities: {
      menu: [searchCapability],
      invoke: async (id, args) => {
        invoked.push({ id, input: args });
        return invoke(id, args);
      },
    },
    previousResult: null,
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    usage: new UsageMeter(),
    ...overrides,
  };
  return { input, invoked };
};

const outputsOf = (request: ModelRequest | undefined): string[] =>
  (request?.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => (i as { output: string }).output);

const resolverFor = (selection: ModelSelection | undefined) => ({ forOwner: async () => selection });

describe('ModelExecutor', () => {
  it('searches, then submits an answer citing what it retrieved; usage is summed over the turn', async () => {
    const model = scriptedModel([
      [call('research-library__search', { query: 'damping' })],
      [call('submit_result', { text: 'Damping absorbs energy [1].', supporting_refs: [passage.ref] })],
    ]);
    const { input, invoked } = turnInput();
    const outcome = await new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 5 }).executeTurn(
      input,
    );
    expect(invoked).toEqual([{ id: 'research-library.search', input: { query: 'damping' } }]);
    expect(outcome).toMatchObject({ status: 'succeeded', satisfiedFamilies: ['research_library_evidence'] });
    expect(outcome.artifacts.map((a) => a.ref)).toEqual([passage.ref]);
    expect(outcome.terminalCandidates).toEqual([
      expect.objectContaining({
        writer: 'helix.model',
        text: 'Damping absorbs energy [1].',
        supportingRefs: [passage.ref],
      }),
    ]);
    expect(outcome.usage).toMatchObject({ inputTokens: 20, outputTokens: 4, totalTokens: 24 });

    const [first, second] = model.requests;
    expect(first?.cacheKey).toBe('run_1');
    expect(first?.tools.map((t) => t.name)).toEqual(['research-library__search', 'submit_result']);
    const prompt = (first!.input[0] as { text: string }).text;
    for (const part of ['How does damping work?', 'Cite sources', 'Answer briefly.', 'q_scope: panels only'])
      expect(prompt).toContain(part);
    expect(JSON.parse(outputsOf(second)[0]!)).toMatchObject({
      results: [{ ref: passage.ref, title: 'Damping', document_id: 'doc_1' }],
    });
  });

  it('passes a cited ref it never retrieved through unfiltered, for terminal authority to refuse', async () => {
    const invented = `artifact:sha256:${'e'.repeat(40)}`;
    const model = scriptedModel([[call('submit_result', { text: 'Made up [1].', supporting_refs: [invented] })]]);
    const outcome = await new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 5 }).executeTurn(
      turnInput().input,
    );
    expect(outcome.artifacts).toEqual([]);
    expect(outcome.terminalCandidates[0]?.supportingRefs).toEqual([invented]);
  });

  it('a made-up tool name or a non-admitted capability is tool_not_found and nothing is invoked', async () => {
    const model = scriptedModel([
      [
        call('repository__search', { query: 'x' }),
        call('research-library.search', { query: 'x' }),
        call('shell', 'rm -rf /'),
      ],
      [call('submit_result', { text: '', unresolved_requirements: ['no_evidence'] })],
    ]);
    const { input, invoked } = turnInput();
    const outcome = await new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 5 }).executeTurn(
      input,
    );
    expect(invoked).toEqual([]);
    expect(outputsOf(model.requests[1])).toEqual(Array(3).fill('{"error":"tool_not_found"}'));
    expect(outcome).toMatchObject({
      status: 'succeeded',
      unresolvedRequirements: ['no_evidence'],
      terminalCandidates: [],
    });
  });

  it('bad arguments and failing capabilities answer the model with a code, never internals', async () => {
    const model = scriptedModel([
      [
        call('research-library__search', '{"query":'),
        call('research-library__search', { query: 'x' }),
        call('research-library__search', { query: 'y' }),
      ],
      [call('submit_result', { text: '' })],
    ]);
    let n = 0;
    const { input } = turnInput({
      invoke: async () => {
        n += 1;
        if (n === 1)
          throw new HelixError('invalid_request', { issues: [{ path: 'query', message: 'invalid capability input' }] });
        throw new Error('SQLITE_CORRUPT at /var/lib/helix/helix.db');
      },
    });
    await new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 5 }).executeTurn(input);
    const outputs = outputsOf(model.requests[1]);
    expect(outputs.map((o) => JSON.parse(o).error)).toEqual(['invalid_arguments', 'invalid_arguments', 'tool_failed']);
    expect(outputs.join()).not.toContain('SQLITE');
  });

  it('enforces the tool-call cap, asks once to submit, and ends with model_did_not_submit when it still does not', async () => {
    const search = () => [call('research-library__search', { query: 'again' })];
    const model = scriptedModel([search(), [...search(), ...search()], search()]);
    const { input, invoked } = turnInput();
    const outcome = await new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 2 }).executeTurn(
      input,
    );
    expect(invoked).toHaveLength(2);
    expect(model.requests).toHaveLength(3);
    const last = model.requests[2]!;
    expect(last.tools.map((t) => t.name)).toEqual(['submit_result']);
    expect(last.input.at(-1)).toEqual({ type: 'message', role: 'user', text: SUBMIT_NOW });
    expect(outputsOf(last).at(-1)).toBe('{"error":"tool_call_limit_reached"}');
    expect(outcome).toMatchObject({
      status: 'succeeded',
      unresolvedRequirements: [MODEL_DID_NOT_SUBMIT],
      terminalCandidates: [],
    });
    expect(outcome.artifacts.map((a) => a.ref)).toEqual([passage.ref]);
  });

  it("bounds the sum of a turn's answers, not just each call: the turn fails with model_output_limit", async () => {
    const bulky = () => [
      { type: 'message', role: 'assistant', text: 'y'.repeat(40 * 1024) } as ModelItem,
      call('research-library__search', { query: 'more' }),
    ];
    const model = scriptedModel([bulky(), bulky(), bulky()]);
    const executor = new ModelExecutor({
      resolver: resolverFor(model.selection),
      maxToolCalls: 5,
      outputLimits: { maxResponseBytes: 1024 * 1024, maxTurnOutputChars: 64 * 1024 },
    });
    const outcome = await executor.executeTurn(turnInput().input);
    expect(outcome).toMatchObject({ status: 'failed', failureCode: 'model_output_limit' });
    expect(model.requests).toHaveLength(2);
    expect(model.requests.every((r) => r.maxResponseBytes === 1024 * 1024)).toBe(true);
  });

  it('a valid submission in the last request after the cap is accepted', async () => {
    const search = () => [call('research-library__search', { query: 'again' })];
    const model = scriptedModel([
      search(),
      search(),
      [call('submit_result', { text: 'A [1].', supporting_refs: [passage.ref] })],
    ]);
    const outcome = await new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 2 }).executeTurn(
      turnInput().input,
    );
    expect(model.requests[2]?.tools.map((t) => t.name)).toEqual(['submit_result']);
    expect(outcome.terminalCandidates).toHaveLength(1);
    expect(outcome.unresolvedRequirements).toEqual([]);
  });

  it('a prose reply gets one request to submit, and an invalid submission is answered with its field paths', async () => {
    const model = scriptedModel([
      [{ type: 'message', role: 'assistant', text: 'Here is my answer in prose.' }],
      [call('submit_result', { text: 'x', questions: [{ prompt: '' }] })],
    ]);
    const outcome = await new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 5 }).executeTurn(
      turnInput().input,
    );
    expect(model.requests[1]?.input.at(-1)).toMatchObject({ role: 'user', text: SUBMIT_NOW });
    expect(outcome.unresolvedRequirements).toEqual([MODEL_DID_NOT_SUBMIT]);
  });

  it('questions block the candidate and get stable ids', async () => {
    const ask = [call('submit_result', { text: 'Maybe.', questions: [{ prompt: 'Which panel?' }] })];
    const run = async () =>
      new ModelExecutor({ resolver: resolverFor(scriptedModel([ask]).selection), maxToolCalls: 5 }).executeTurn(
        turnInput().input,
      );
    const [a, b] = [await run(), await run()];
    expect(a.terminalCandidates).toEqual([]);
    expect(a.questions[0]?.question_id).toMatch(/^q_[0-9a-f]{12}$/);
    expect(b.questions[0]?.question_id).toBe(a.questions[0]?.question_id);
  });

  it('a model error fails the turn with a typed code and keeps the usage spent before it', async () => {
    const model = scriptedModel([
      [call('research-library__search', { query: 'x' })],
      new ModelError('rate_limited', 'slow down; key sk-secret', { retryable: true, attempts: 3 }),
    ]);
    const outcome = await new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 5 }).executeTurn(
      turnInput().input,
    );
    expect(outcome).toMatchObject({ status: 'failed', failureCode: 'model_rate_limited', usage: { totalTokens: 12 } });
    expect(JSON.stringify(outcome)).not.toContain('sk-secret');
  });

  it("a provider-stated error is kept as the turn's failure detail, and its absence leaves none (issue 27 item 18)", async () => {
    const stated = scriptedModel([
      new ModelError('quota', 'provider error usage_not_included: Your plan does not include Codex usage.', {
        retryable: false,
        providerCode: 'usage_not_included',
        providerMessage: 'Your plan does not include Codex usage.',
        attempts: 1,
      }),
    ]);
    const failed = await new ModelExecutor({ resolver: resolverFor(stated.selection), maxToolCalls: 5 }).executeTurn(
      turnInput().input,
    );
    expect(failed).toMatchObject({
      status: 'failed',
      failureCode: 'model_quota',
      failureDetail: {
        provider: 'scripted',
        type: null,
        code: 'usage_not_included',
        message: 'Your plan does not include Codex usage.',
        http_status: null,
      },
    });
    const unstated = scriptedModel([new ModelError('transport', 'connection reset', { retryable: true })]);
    const reset = await new ModelExecutor({ resolver: resolverFor(unstated.selection), maxToolCalls: 5 }).executeTurn(
      turnInput().input,
    );
    expect(reset.failureCode).toBe('model_transport');
    expect(reset.failureDetail).toBeUndefined();
  });

  it('without a model for the owner it delegates to the fallback, or fails as model_unconfigured', async () => {
    const fallback = new ScriptedExecutor([emptyOutcome({ unresolvedRequirements: ['from_fallback'] })]);
    const { input } = turnInput();
    expect(
      (await new ModelExecutor({ resolver: resolverFor(undefined), fallback, maxToolCalls: 5 }).executeTurn(input))
        .unresolvedRequirements,
    ).toEqual(['from_fallback']);
    expect(fallback.inputs[0]?.ownerHash).toBe('owner-hash');
    expect(
      await new ModelExecutor({ resolver: resolverFor(undefined), maxToolCalls: 5 }).executeTurn(input),
    ).toMatchObject({ status: 'failed', failureCode: 'model_unconfigured' });
  });

  it('an abort during the model call rejects the turn; a passed deadline fails it as turn_timeout', async () => {
    const controller = new AbortController();
    const model = scriptedModel([
      async (request) =>
        new Promise((_, reject) => {
          request.signal.addEventListener('abort', () =>
            reject(new ModelError('aborted', 'aborted', { retryable: false })),
          );
          controller.abort(new Error('cancelled'));
        }),
    ]);
    await expect(
      new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 5 }).executeTurn(
        turnInput({ signal: controller.signal }).input,
      ),
    ).rejects.toThrow('cancelled');

    const late = scriptedModel([[call('research-library__search', { query: 'x' })]]);
    const outcome = await new ModelExecutor({
      resolver: resolverFor(late.selection),
      maxToolCalls: 5,
      now: () => 2_000,
    }).executeTurn(turnInput({ deadline: 1_000 }).input);
    expect(outcome).toMatchObject({ status: 'failed', failureCode: 'turn_timeout' });
    expect(late.requests).toHaveLength(0);
  });

  it('reasoning items are replayed within the turn but never reach the outcome', async () => {
    const reasoning: ModelItem = {
      type: 'reasoning',
      provider: 'scripted',
      opaque: { encrypted_content: 'hidden-thoughts' },
    };
    const model = scriptedModel([
      [reasoning, call('research-library__search', { query: 'x' })],
      [call('submit_result', { text: 'A [1].', supporting_refs: [passage.ref] })],
    ]);
    const outcome = await new ModelExecutor({ resolver: resolverFor(model.selection), maxToolCalls: 5 }).executeTurn(
      turnInput().input,
    );
    expect(model.requests[1]?.input).toContainEqual(reasoning);
    expect(JSON.stringify(outcome)).not.toContain('hidden-thoughts');
  });
});
