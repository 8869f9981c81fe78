import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Capability } from '../../sources/capability.js';
import { scriptedArtifact } from '../scriptedExecutor.js';
import { outcomeFromResult, parseSubmittedResult, resultToolSpec, type SubmittedResult } from './resultTool.js';
import { buildToolTable, functionNameFor } from './toolNames.js';

const capability = (id: string): Capability => ({
  id,
  scope: 'research_library',
  family: 'research_library_evidence',
  kind: 'search',
  description: `tool ${id}`,
  input: z.strictObject({ query: z.string().min(1), limit: z.number().int().default(8) }) as z.ZodType<unknown>,
  execute: async () => ({ artifacts: [], hits: [] }),
});

const parse = (args: Record<string, unknown>): SubmittedResult => {
  const parsed = parseSubmittedResult(JSON.stringify(args));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.result;
};

describe('tool table', () => {
  it('maps capability ids to valid function names and back, with the capability input as JSON Schema', () => {
    const table = buildToolTable([capability('research-library.search'), capability('research-library.read_document')]);
    expect(table.specs.map((s) => s.name)).toEqual(['research-library__search', 'research-library__read_document']);
    for (const spec of table.specs) expect(spec.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(table.capabilityFor('research-library__search')).toBe('research-library.search');
    expect(table.capabilityFor('research-library.search')).toBeUndefined();
    expect(table.capabilityFor('submit_result')).toBeUndefined();
    expect(table.specs[0]?.parameters).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1 },
        limit: { type: 'integer', default: 8, minimum: expect.any(Number), maximum: expect.any(Number) },
      },
      required: ['query'],
      additionalProperties: false,
    });
  });

  it('keeps the table reversible when two ids sanitize to the same name, and bounds the length', () => {
    const table = buildToolTable([capability('a.b'), capability('a__b'), capability(`x.${'y'.repeat(80)}`)]);
    const names = table.specs.map((s) => s.name);
    expect(new Set(names).size).toBe(3);
    expect(names.map((n) => table.capabilityFor(n))).toEqual(['a.b', 'a__b', `x.${'y'.repeat(80)}`]);
    expect(functionNameFor(`x.${'y'.repeat(80)}`)).toHaveLength(64);
  });
});

describe('submit_result', () => {
  it('publishes a JSON Schema with every field optional except what the model must shape', () => {
    const spec = resultToolSpec();
    expect(spec.name).toBe('submit_result');
    expect(Object.keys((spec.parameters as { properties: object }).properties)).toEqual([
      'text',
      'supporting_refs',
      'output_fields',
      'unresolved_requirements',
      'contradictions',
      'questions',
    ]);
  });

  it('rejects bad JSON, unknown fields and oversized values, naming only field paths', () => {
    expect(parseSubmittedResult('{"text":')).toEqual({ ok: false, error: 'arguments are not valid JSON' });
    expect(parseSubmittedResult(JSON.stringify({ text: 'x', verdict: 'final' }))).toMatchObject({ ok: false });
    expect(parseSubmittedResult(JSON.stringify({ questions: [{ question_id: 'Bad Id!', prompt: 'p' }] }))).toEqual({
      ok: false,
      error: 'invalid fields: questions.0.question_id',
    });
    expect(parseSubmittedResult(JSON.stringify({ output_fields: { blob: 'x'.repeat(20_000) } }))).toEqual({
      ok: false,
      error: 'output_fields is too large',
    });
  });

  it('maps to an outcome: candidate only with text and no questions; refs unfiltered; contradiction refs limited to retrieved ones', () => {
    const a = scriptedArtifact('one', { capabilityId: 'research-library.search', family: 'research_library_evidence' });
    const invented = `artifact:sha256:${'0'.repeat(40)}`;
    const outcome = outcomeFromResult(
      parse({
        text: ' Answer [1]. ',
        supporting_refs: [a.ref, invented, a.ref],
        output_fields: { verdict: 'yes', text: 'spoofed' },
        contradictions: [{ description: 'They disagree.', refs: [a.ref, invented] }],
      }),
      [a],
    );
    expect(outcome.terminalCandidates).toEqual([
      expect.objectContaining({
        writer: 'helix.model',
        text: 'Answer [1].',
        supportingRefs: [a.ref, invented],
        outputFields: { verdict: 'yes' },
      }),
    ]);
    expect(outcome.contradictions).toEqual([
      {
        contradiction_id: expect.stringMatching(/^conflict_[0-9a-f]{12}$/),
        description: 'They disagree.',
        refs: [a.ref],
      },
    ]);

    const asking = outcomeFromResult(
      parse({
        text: 'Perhaps.',
        questions: [{ question_id: 'which_panel', prompt: 'Which panel?', answer_hint: '"A" or "B"' }],
      }),
      [a],
    );
    expect(asking.terminalCandidates).toEqual([]);
    expect(asking.questions).toEqual([
      { question_id: 'which_panel', prompt: 'Which panel?', answer_hint: '"A" or "B"' },
    ]);
    expect(outcomeFromResult(parse({ text: '   ' }), [a]).terminalCandidates).toEqual([]);
  });
});
