import { z } from 'zod';
import { canonicalJson, sha256Hex } from '../../domain/hashing.js';
import { QUESTION_KINDS, type Contradiction, type PendingQuestion } from '../../domain/run.js';
import { emptyOutcome, type TurnArtifact, type TurnOutcome } from '../../domain/turn.js';
import type { ToolSpec } from '../../model/port.js';

export const RESULT_TOOL_NAME = 'submit_result';
export const MODEL_WRITER = 'helix.model';
const MAX_OUTPUT_FIELDS_JSON = 16 * 1024;

const ref = z.string().trim().min(1).max(200);

/** What the model hands back at the end of a turn. Every field is bounded; nothing is trusted yet. */
export const SubmitResult = z.strictObject({
  text: z
    .string()
    .max(20_000)
    .default('')
    .describe('The answer, citing sources by ref. Empty when there is no supported answer or a question is open.'),
  supporting_refs: z
    .array(ref)
    .max(50)
    .default([])
    .describe('The refs (artifact:sha256:…) the answer relies on, exactly as the tools returned them.'),
  output_fields: z
    .record(z.string().max(100), z.unknown())
    .default({})
    .describe('Named structured outputs the task asks for.'),
  unresolved_requirements: z
    .array(z.string().trim().min(1).max(200))
    .max(20)
    .default([])
    .describe('What is still missing, as short snake_case names.'),
  contradictions: z
    .array(z.strictObject({ description: z.string().trim().min(1).max(2_000), refs: z.array(ref).max(20).default([]) }))
    .max(10)
    .default([])
    .describe('Places where the retrieved sources disagree.'),
  questions: z
    .array(
      z.strictObject({
        question_id: z
          .string()
          .regex(/^[a-z0-9_]{1,64}$/)
          .optional(),
        prompt: z.string().trim().min(1).max(1_000),
        answer_hint: z.string().max(200).optional(),
        kind: z.enum(QUESTION_KINDS).optional().describe('confirmation: the user confirms or declines with feedback.'),
        skippable: z.boolean().optional().describe('Whether the user may skip this question.'),
      }),
    )
    .max(5)
    .default([])
    .describe('Questions only the user can answer; while one is open, leave text empty.'),
});
export type SubmittedResult = z.output<typeof SubmitResult>;

export const resultToolSpec = (): ToolSpec => {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(SubmitResult, { io: 'input' }) as Record<string, unknown>;
  return {
    name: RESULT_TOOL_NAME,
    description:
      'Finish the turn: submit the answer (or what is missing), the refs it relies on, contradictions and questions. Call it exactly once, last.',
    parameters,
  };
};

export type ParsedResult = { ok: true; result: SubmittedResult } | { ok: false; error: string };

/** The model's arguments, parsed and bounded; an error names only field paths, for the model to fix. */
export const parseSubmittedResult = (argumentsJson: string): ParsedResult => {
  let value: unknown;
  try {
    value = JSON.parse(argumentsJson);
  } catch {
    return { ok: false, error: 'arguments are not valid JSON' };
  }
  const parsed = SubmitResult.safeParse(value);
  if (!parsed.success) {
    const paths = [...new Set(parsed.error.issues.map((i) => i.path.map(String).join('.') || '(arguments)'))].slice(
      0,
      10,
    );
    return { ok: false, error: `invalid fields: ${paths.join(', ')}` };
  }
  if (JSON.stringify(parsed.data.output_fields).length > MAX_OUTPUT_FIELDS_JSON)
    return { ok: false, error: 'output_fields is too large' };
  return { ok: true, result: parsed.data };
};

/** `text` and `supporting_evidence_refs` come from the candidate itself (judgeTurn); the model cannot restate them. */
const withoutReserved = (fields: Record<string, unknown>): Record<string, unknown> => {
  const { text: _text, supporting_evidence_refs: _refs, ...rest } = fields;
  return rest;
};

/** A stable id from content, so asking the same thing again keeps the same question or contradiction. */
const stableId = (prefix: string, value: unknown): string =>
  `${prefix}_${sha256Hex(canonicalJson(value)).slice(0, 12)}`;

const contradictionsOf = (result: SubmittedResult, retrieved: ReadonlySet<string>): Contradiction[] => {
  const seen = new Set<string>();
  return result.contradictions.flatMap((c) => {
    // A contradiction names sources; refs the turn never retrieved cannot be among them.
    const refs = [...new Set(c.refs.filter((r) => retrieved.has(r)))];
    const id = stableId('conflict', { description: c.description, refs });
    if (seen.has(id)) return [];
    seen.add(id);
    return [{ contradiction_id: id, description: c.description, refs }];
  });
};

const questionsOf = (result: SubmittedResult): PendingQuestion[] => {
  const seen = new Set<string>();
  return result.questions.flatMap((q) => {
    const id = q.question_id ?? stableId('q', q.prompt);
    if (seen.has(id)) return [];
    seen.add(id);
    return [
      {
        question_id: id,
        prompt: q.prompt,
        ...(q.answer_hint !== undefined ? { answer_hint: q.answer_hint } : {}),
        ...(q.kind !== undefined ? { kind: q.kind } : {}),
        ...(q.skippable !== undefined ? { skippable: q.skippable } : {}),
      },
    ];
  });
};

/**
 * The submitted result as a turn outcome (the model's, or an external agent's: `writer` says whose).
 * The supporting refs are passed on exactly as the model
 * wrote them: deciding whether they were retrieved and admitted is terminal authority's job
 * (judgeTurn), and filtering here would hide a model citing what it never read.
 */
export const outcomeFromResult = (
  result: SubmittedResult,
  artifacts: readonly TurnArtifact[],
  writer: string = MODEL_WRITER,
): TurnOutcome => {
  const retrieved = new Set(artifacts.map((a) => a.ref));
  const questions = questionsOf(result);
  const text = result.text.trim();
  const candidate =
    text !== '' && questions.length === 0
      ? [
          {
            ref: `candidate:sha256:${sha256Hex(text).slice(0, 40)}`,
            writer,
            text,
            textSha256: sha256Hex(text),
            supportingRefs: [...new Set(result.supporting_refs)],
            outputFields: withoutReserved(result.output_fields),
          },
        ]
      : [];
  return emptyOutcome({
    artifacts,
    satisfiedFamilies: [...new Set(artifacts.map((a) => a.family))],
    unresolvedRequirements: [...new Set(result.unresolved_requirements)],
    contradictions: contradictionsOf(result, retrieved),
    questions,
    terminalCandidates: candidate,
  });
};
